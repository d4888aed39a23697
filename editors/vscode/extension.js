// The Robots extension: the grammar (package.json) colours .robot files; this starts
// `robots lsp` over stdio for them and for match files, with vscode-languageclient.
// Without that module (no `npm install` yet) the colours still work and a message says why
// the rest does not.
'use strict';
const vscode = require('vscode');

let client;

async function activate(context) {
  let lc;
  try {
    lc = require('vscode-languageclient/node');
  } catch {
    vscode.window.showWarningMessage(
      'Robots: vscode-languageclient is missing (run `npm install` in the extension folder): ' +
        'highlighting works, diagnostics and the rest of `robots lsp` do not.',
    );
    return;
  }
  const config = vscode.workspace.getConfiguration('robots');
  const command = config.get('path') || 'robots';
  const server = { command, args: ['lsp'], transport: lc.TransportKind.stdio };
  const documentSelector = [
    { scheme: 'file', language: 'robot' },
    { scheme: 'untitled', language: 'robot' },
    { scheme: 'file', language: 'yaml', pattern: config.get('matchFiles') || '**/matches/**/*.{yaml,yml}' },
  ];
  const initializationOptions = { keywords: config.get('keywords') || 'plain' };
  client = new lc.LanguageClient('robots', 'Robots language server', server, {
    documentSelector,
    initializationOptions,
  });
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `Robots: could not start \`${command} lsp\` (is \`robots\` on PATH, or set robots.path?): ${err.message ?? err}`,
    );
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
