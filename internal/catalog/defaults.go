package catalog

import "sync"

// DefaultAttributes returns the seven attributes of the interface: RAM,
// storage, screen size, resolution, refresh rate, power and Wi-Fi
// generation. The table is built once and shared: it is read-only, and a
// table with other attributes is made with NewAttributeTable.
func DefaultAttributes() *AttributeTable { return defaultAttributes() }

// defaultAttributes builds the interface's table on first use; the table
// is never modified after, so sharing it is safe for concurrent readers.
var defaultAttributes = sync.OnceValue(newDefaultAttributes)

// newDefaultAttributes builds the interface's attribute table.
func newDefaultAttributes() *AttributeTable {
	return &AttributeTable{defs: []AttributeDef{
		{
			Name: MemoryGB, UnitDoc: "GB", Label: "Memory (RAM)", Unit: "GB", Hint: "In GB, e.g. 16.",
			Doc:     `RAM in GB. Example: at least 16 GB RAM -> {"gte": 16}.`,
			Example: 16, ExampleOp: OpGte,
			Aliases: []string{"ram", "mem"},
			Query: QueryForms{
				Op:     OpGte,
				Units:  []Unit{{Suffix: "gb", Factor: 1, NeedsLabel: true}},
				Labels: []string{"ram", "memory", "ddr3", "ddr4", "ddr5", "lpddr4", "lpddr4x", "lpddr5", "lpddr5x", "unified"},
				Nouns:  []string{"ram", "memory"},
			},
			Suggestions: []NamedValue{{"8 GB", 8}, {"16 GB", 16}, {"32 GB", 32}, {"64 GB", 64}},
			Display:     Display{Suffix: " GB"},
		},
		{
			Name: StorageGB, UnitDoc: "GB, 1TB = 1000", Label: "Storage", Unit: "GB", Hint: "In GB; 1 TB = 1000.",
			Doc:     `Storage capacity in GB, 1 TB = 1000. Example: at least 1 TB -> {"gte": 1000}; 512 GB SSD -> {"gte": 512}.`,
			Example: 1000, ExampleOp: OpGte,
			Aliases:   []string{"stor", "ssd", "disk", "hdd", "capacity"},
			Tolerance: Tolerance{Relative: 0.03},
			Query: QueryForms{
				Op:     OpGte,
				Units:  []Unit{{Suffix: "tb", Factor: 1000}, {Suffix: "gb", Factor: 1, NeedsLabel: true}},
				Labels: []string{"ssd", "storage", "hdd", "emmc", "nvme", "rom", "flash", "drive", "disk", "harddrive"},
				Kinds:  []string{"ssd", "hdd", "nvme", "emmc", "harddrive"},
			},
			Suggestions: []NamedValue{{"256 GB", 256}, {"512 GB", 512}, {"1 TB", 1000}, {"2 TB", 2000}},
			Display:     Display{Suffix: " GB", Larger: &LargerUnit{Suffix: " TB", Factor: 1000, Step: 250}},
		},
		{
			Name: ScreenIn, UnitDoc: "inches", Label: "Screen size", Unit: "inches", Hint: "Diagonal in inches, e.g. 15.6 or 55.",
			Doc: `Screen size in inches (diagonal). Example: a 15.6" laptop -> {"eq": 15.6}; a 55" TV -> {"eq": 55}; ` +
				`up to 14" -> {"lte": 14}.`,
			Example: 15.6, ExampleOp: OpEq,
			Aliases:   []string{"screen", "display", "size", "inch", "diagonal"},
			Tolerance: Tolerance{Absolute: 0.5, SizeClass: true},
			Query:     QueryForms{Op: OpEq, Inch: true},
			Suggestions: []NamedValue{{"13.3 in", 13.3}, {"14 in", 14}, {"15.6 in", 15.6}, {"27 in", 27},
				{"55 in", 55}, {"65 in", 65}},
			Display: Display{Suffix: " in"},
		},
		{
			Name: ResolutionP, UnitDoc: "pixels high, 4K = 2160", Label: "Resolution", Unit: "pixels high",
			Hint: "Pixels high: 2160 for 4K, 1440 for QHD, 1080 for Full HD.",
			Doc: `Vertical resolution in pixels: 4K/UHD = 2160, QHD/1440p = 1440, Full HD/1080p = 1080, HD/720p = 720. ` +
				`Example: 4K -> {"gte": 2160}.`,
			Example: 2160, ExampleOp: OpGte,
			Aliases: []string{"res", "pixel"},
			Query: QueryForms{Op: OpGte, Named: []NamedValue{
				{"4k", 2160}, {"uhd", 2160}, {"2160p", 2160}, {"8k", 4320}, {"4320p", 4320},
				{"2k", 1440}, {"qhd", 1440}, {"wqhd", 1440}, {"1440p", 1440}, {"fhd", 1080}, {"1080p", 1080},
				{"720p", 720}, {"full hd", 1080}, {"ultra hd", 2160},
			}},
			Suggestions: []NamedValue{{"Full HD", 1080}, {"QHD", 1440}, {"4K", 2160}},
			Display: Display{Suffix: "p", Named: []NamedValue{
				{"720p (HD)", 720}, {"1080p (Full HD)", 1080}, {"1440p (QHD)", 1440}, {"2160p (4K)", 2160}, {"4320p (8K)", 4320},
			}},
		},
		{
			Name: RefreshHz, UnitDoc: "Hz", Label: "Refresh rate", Unit: "Hz", Hint: "In Hz, e.g. 144.",
			Doc:     `Display refresh rate in Hz. Example: at least 144 Hz -> {"gte": 144}.`,
			Example: 144, ExampleOp: OpGte,
			Aliases: []string{"refresh", "hz", "fps"},
			Query:   QueryForms{Op: OpGte, Units: []Unit{{Suffix: "hz", Factor: 1}}},
			Suggestions: []NamedValue{{"60 Hz", 60}, {"120 Hz", 120}, {"144 Hz", 144}, {"165 Hz", 165},
				{"240 Hz", 240}},
			Display: Display{Suffix: " Hz"},
		},
		{
			Name: PowerW, UnitDoc: "W", Label: "Power", Unit: "W", Hint: "In watts, e.g. 65 for a charger.",
			Doc:     `Power in watts (charger output, speaker or appliance wattage). Example: at least 65 W -> {"gte": 65}.`,
			Example: 65, ExampleOp: OpGte,
			Aliases:     []string{"power", "watt", "charg"},
			Query:       QueryForms{Op: OpGte, Units: []Unit{{Suffix: "w", Factor: 1}}},
			Suggestions: []NamedValue{{"20 W", 20}, {"65 W", 65}, {"100 W", 100}},
			Display:     Display{Suffix: " W"},
		},
		{
			Name: WifiGen, UnitDoc: "generation, 6E = 6.5", Label: "Wi-Fi", Hint: "Generation: 6, 6.5 for Wi-Fi 6E, 7.",
			Doc:     `Wi-Fi generation: 5, 6, 6.5 for Wi-Fi 6E, 7. Example: Wi-Fi 6E or newer -> {"gte": 6.5}.`,
			Example: 6, ExampleOp: OpGte,
			Aliases: []string{"wifi", "wlan", "wireless"},
			Query: QueryForms{Op: OpGte, Prefix: "wifi", Names: []NamedValue{
				{"4", 4}, {"5", 5}, {"6", 6}, {"6e", 6.5}, {"7", 7},
			}},
			Suggestions: []NamedValue{{"Wi-Fi 6", 6}, {"Wi-Fi 6E", 6.5}, {"Wi-Fi 7", 7}},
			Display:     Display{Prefix: "Wi-Fi ", Named: []NamedValue{{"Wi-Fi 6E", 6.5}}},
		},
	}}
}
