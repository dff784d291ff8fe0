// API reference page: fills the examples with this server's address, wires
// the copy buttons, and starts swagger-ui (vendored, same origin) on
// /openapi.json with the public key preauthorised. No validator, no
// external requests.
(function () {
  'use strict';

  var base = window.location.origin;
  var codes = document.querySelectorAll('.example-code');
  for (var i = 0; i < codes.length; i++) {
    codes[i].textContent = codes[i].textContent.split('{base_url}').join(base);
  }

  function copied(button, text) {
    var old = button.textContent;
    button.textContent = text;
    window.setTimeout(function () { button.textContent = old; }, 1500);
  }
  var buttons = document.querySelectorAll('button[data-copy]');
  for (var j = 0; j < buttons.length; j++) {
    buttons[j].addEventListener('click', function (ev) {
      var button = ev.currentTarget;
      var code = document.getElementById(button.getAttribute('data-copy'));
      if (!code) return;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(code.textContent).then(function () { copied(button, 'Copied'); },
          function () { copied(button, 'Select and copy'); });
      } else {
        var range = document.createRange();
        range.selectNodeContents(code);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        copied(button, 'Selected');
      }
    });
  }

  var root = document.getElementById('swagger-ui');
  if (!root) return;
  if (typeof window.SwaggerUIBundle !== 'function') {
    root.textContent = 'The interactive reference could not be loaded. The OpenAPI document is at /openapi.json.';
    return;
  }
  var key = root.getAttribute('data-public-key');
  root.textContent = '';
  var ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    validatorUrl: null,
    deepLinking: false,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    persistAuthorization: false,
    withCredentials: false,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    syntaxHighlight: { activated: true, theme: 'agate' },
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      if (key) ui.preauthorizeApiKey('bearerAuth', key);
    }
  });
}());
