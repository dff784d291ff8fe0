package extract

// Token flags set by the context pass, one set per token of the title (see
// analysis.flags); the tokens themselves come from the shared lexer.
const (
	flNeg       uint8 = 1 << iota // inside the reach of "up to", "supports", "max" ...
	flGPU                         // shortly after a graphics processor name
	flCut                         // after "for"/"compatible with": names another device
	flLabelUsed                   // a label word already bound to a figure before it
)
