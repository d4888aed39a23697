//! `robots lsp`: the editor protocol (LSP) over standard input and output, for `.robot`
//! programs and match files (docs/EDITORS.md). Every answer comes from the library's
//! `battle::lang::editor`; this file only speaks the protocol (`lsp-server`, synchronous,
//! full document sync). A message it cannot read is answered with an error, never a panic.

use crate::cli::args::flags::{LspArgs, confine};
use crate::cli::io::files::FileKind;
use crate::cli::io::output::Failure;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lt;
use robots_games::battle::lang::Keywords;
use robots_games::battle::lang::editor::{self, CompletionKind, Note, SymbolKind};
use robots_games::text::diagnostic::Severity;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::PathBuf;

/// What kind of text a document holds, from its name when opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Program,
    Yaml,
    Other,
}

struct Document {
    uri: lt::Uri,
    kind: Kind,
    version: i32,
    text: String,
}

/// The open documents, by their URI as written, and the language of programs.
struct Server {
    keywords: Keywords,
    documents: HashMap<String, Document>,
}

pub fn run(args: &LspArgs) -> Result<(), Failure> {
    let (connection, io) = Connection::stdio();
    let capabilities = serde_json::to_value(capabilities())
        .map_err(|e| Failure::Bad(format!("lsp: the capabilities: {e}")))?;
    let init = connection
        .initialize(capabilities)
        .map_err(|e| Failure::Bad(format!("lsp: {e}")))?;
    let chosen = init
        .pointer("/initializationOptions/keywords")
        .and_then(serde_json::Value::as_str)
        .and_then(Keywords::parse);
    let mut server = Server {
        keywords: chosen.unwrap_or(args.keywords.language()),
        documents: HashMap::new(),
    };
    let mut exit = Ok(());
    for message in &connection.receiver {
        let out = match message {
            Message::Request(request) => {
                match connection.handle_shutdown(&request) {
                    Ok(true) => break,
                    Ok(false) => {}
                    Err(e) => {
                        exit = Err(Failure::Bad(format!("lsp: {e}")));
                        break;
                    }
                }
                vec![Message::Response(server.answer(request))]
            }
            Message::Notification(n) if n.method == "exit" => {
                exit = Err(Failure::Bad("lsp: exit before shutdown".into()));
                break;
            }
            Message::Notification(n) => server.notice(n),
            Message::Response(_) => Vec::new(),
        };
        for m in out {
            if connection.sender.send(m).is_err() {
                break;
            }
        }
    }
    drop(connection);
    io.join()
        .map_err(|e| Failure::Bad(format!("lsp: standard input or output: {e}")))?;
    exit
}

fn capabilities() -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Kind(
            lt::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lt::OneOf::Left(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec![" ".into(), ":".into()]),
            ..lt::CompletionOptions::default()
        }),
        document_formatting_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        ..lt::ServerCapabilities::default()
    }
}

/// Its parameters, if they can be read.
fn params<P: DeserializeOwned>(request: &Request) -> Option<P> {
    serde_json::from_value(request.params.clone()).ok()
}

fn ok<T: serde::Serialize>(request: &Request, result: T) -> Response {
    Response::new_ok(request.id.clone(), result)
}

fn position(p: editor::Position) -> lt::Position {
    lt::Position::new(p.line, p.character)
}

fn from_lsp(p: lt::Position) -> editor::Position {
    editor::Position {
        line: p.line,
        character: p.character,
    }
}

fn range(r: editor::Range) -> lt::Range {
    lt::Range::new(position(r.start), position(r.end))
}

impl Server {
    /// The program text at a document, if it is an open program.
    fn program(&self, uri: &lt::Uri) -> Option<&Document> {
        self.documents
            .get(uri.as_str())
            .filter(|d| d.kind == Kind::Program)
    }

    fn answer(&self, request: Request) -> Response {
        let answer = match request.method.as_str() {
            "textDocument/hover" => self.hover(&request),
            "textDocument/definition" => self.definition(&request),
            "textDocument/completion" => self.completion(&request),
            "textDocument/formatting" => self.formatting(&request),
            "textDocument/documentSymbol" => self.symbols(&request),
            _ => {
                return Response::new_err(
                    request.id.clone(),
                    ErrorCode::MethodNotFound as i32,
                    format!("robots lsp does not answer `{}`", request.method),
                );
            }
        };
        answer.unwrap_or_else(|| {
            Response::new_err(
                request.id.clone(),
                ErrorCode::InvalidParams as i32,
                format!("the parameters of `{}` could not be read", request.method),
            )
        })
    }

    fn hover(&self, request: &Request) -> Option<Response> {
        let p: lt::HoverParams = params(request)?;
        let at = p.text_document_position_params;
        let found = self
            .program(&at.text_document.uri)
            .and_then(|d| editor::hover(&d.text, from_lsp(at.position)))
            .map(|(r, text)| lt::Hover {
                contents: lt::HoverContents::Markup(lt::MarkupContent {
                    kind: lt::MarkupKind::Markdown,
                    value: text,
                }),
                range: Some(range(r)),
            });
        Some(ok(request, found))
    }

    fn definition(&self, request: &Request) -> Option<Response> {
        let p: lt::GotoDefinitionParams = params(request)?;
        let at = p.text_document_position_params;
        let found = self.program(&at.text_document.uri).and_then(|d| {
            let r = editor::definition(&d.text, from_lsp(at.position))?;
            Some(lt::GotoDefinitionResponse::Scalar(lt::Location::new(
                d.uri.clone(),
                range(r),
            )))
        });
        Some(ok(request, found))
    }

    fn completion(&self, request: &Request) -> Option<Response> {
        let p: lt::CompletionParams = params(request)?;
        let at = p.text_document_position;
        let items: Vec<lt::CompletionItem> = self
            .program(&at.text_document.uri)
            .map(|d| editor::completions(&d.text, self.keywords, from_lsp(at.position)))
            .unwrap_or_default()
            .into_iter()
            .map(|c| lt::CompletionItem {
                label: c.label,
                detail: Some(c.detail),
                kind: Some(match c.kind {
                    CompletionKind::Instruction => lt::CompletionItemKind::FUNCTION,
                    CompletionKind::Word => lt::CompletionItemKind::KEYWORD,
                    CompletionKind::Line => lt::CompletionItemKind::SNIPPET,
                }),
                ..lt::CompletionItem::default()
            })
            .collect();
        Some(ok(request, lt::CompletionResponse::Array(items)))
    }

    fn formatting(&self, request: &Request) -> Option<Response> {
        let p: lt::DocumentFormattingParams = params(request)?;
        let edits: Vec<lt::TextEdit> = self
            .program(&p.text_document.uri)
            .and_then(|d| {
                let formatted = editor::format(&d.text)?;
                (formatted != d.text).then(|| {
                    let whole =
                        lt::Range::new(lt::Position::new(0, 0), position(editor::end(&d.text)));
                    lt::TextEdit::new(whole, formatted)
                })
            })
            .into_iter()
            .collect();
        Some(ok(request, edits))
    }

    fn symbols(&self, request: &Request) -> Option<Response> {
        let p: lt::DocumentSymbolParams = params(request)?;
        let symbols: Vec<lt::DocumentSymbol> = self
            .program(&p.text_document.uri)
            .map(|d| editor::symbols(&d.text))
            .unwrap_or_default()
            .into_iter()
            .map(symbol)
            .collect();
        Some(ok(request, lt::DocumentSymbolResponse::Nested(symbols)))
    }

    /// A notification's effect: the diagnostics of a document opened, changed or closed.
    fn notice(&mut self, n: Notification) -> Vec<Message> {
        let uri = match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<lt::DidOpenTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let d = p.text_document;
                let kind = kind_of(d.uri.as_str(), &d.language_id);
                let key = d.uri.as_str().to_string();
                let document = Document {
                    uri: d.uri,
                    kind,
                    version: d.version,
                    text: d.text,
                };
                self.documents.insert(key.clone(), document);
                key
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<lt::DidChangeTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let Some(d) = self.documents.get_mut(p.text_document.uri.as_str()) else {
                    return Vec::new();
                };
                d.version = p.text_document.version;
                for change in p.content_changes {
                    apply(&mut d.text, change);
                }
                p.text_document.uri.as_str().to_string()
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<lt::DidCloseTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                return match self.documents.remove(p.text_document.uri.as_str()) {
                    Some(d) => vec![publish(d.uri, Vec::new(), None)],
                    None => Vec::new(),
                };
            }
            _ => return Vec::new(),
        };
        self.documents
            .get(&uri)
            .map(|d| publish(d.uri.clone(), self.diagnostics(d), Some(d.version)))
            .into_iter()
            .collect()
    }

    /// `robots check`'s diagnostics of a document: a program's; a match file's, the files
    /// it names read from its folder; nothing for another file.
    fn diagnostics(&self, d: &Document) -> Vec<lt::Diagnostic> {
        let notes = match d.kind {
            Kind::Program => editor::diagnostics(&d.text, self.keywords),
            Kind::Yaml => {
                let path = file_path(d.uri.as_str());
                if FileKind::of(&path, &d.text) != FileKind::Match {
                    return Vec::new();
                }
                let fetch = crate::cli::io::files::fetcher(&path);
                let shown = path.display().to_string();
                editor::match_diagnostics(&shown, &d.text, &fetch, confine(false))
            }
            Kind::Other => Vec::new(),
        };
        notes.into_iter().map(diagnostic).collect()
    }
}

/// A change sent by a client: the whole text, or (from a client that ignores the full sync
/// asked for) a range replaced.
fn apply(text: &mut String, change: lt::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(r) => {
            let start = editor::offset(text, from_lsp(r.start));
            let end = editor::offset(text, from_lsp(r.end)).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

fn kind_of(uri: &str, language: &str) -> Kind {
    let lower = uri.to_ascii_lowercase();
    if lower.ends_with(".robot") || language == "robot" {
        Kind::Program
    } else if lower.ends_with(".yaml") || lower.ends_with(".yml") || language == "yaml" {
        Kind::Yaml
    } else {
        Kind::Other
    }
}

/// The path of a `file:` URI, its `%XX` escapes decoded.
fn file_path(uri: &str) -> PathBuf {
    let rest = uri.strip_prefix("file://").unwrap_or(uri);
    let mut bytes = Vec::with_capacity(rest.len());
    let mut raw = rest.bytes();
    while let Some(b) = raw.next() {
        let hex = |c: u8| char::from(c).to_digit(16);
        if b == b'%' {
            let (hi, lo) = (raw.next(), raw.next());
            if let (Some(h), Some(l)) = (hi.and_then(hex), lo.and_then(hex)) {
                bytes.push(u8::try_from(h * 16 + l).unwrap_or(b'?'));
                continue;
            }
            bytes.push(b);
            bytes.extend(hi.into_iter().chain(lo));
        } else {
            bytes.push(b);
        }
    }
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

fn diagnostic(n: Note) -> lt::Diagnostic {
    lt::Diagnostic {
        range: range(n.range),
        severity: Some(match n.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
        }),
        code: n.id.map(|id| lt::NumberOrString::String(id.into())),
        source: Some("robots".into()),
        message: n.message,
        ..lt::Diagnostic::default()
    }
}

/// A step, a test or the name in the outline (`deprecated` is a field the type still has).
#[allow(deprecated)]
fn symbol(s: editor::Symbol) -> lt::DocumentSymbol {
    lt::DocumentSymbol {
        name: s.name,
        detail: Some(s.detail),
        kind: match s.kind {
            SymbolKind::Name => lt::SymbolKind::STRING,
            SymbolKind::Step => lt::SymbolKind::FIELD,
            SymbolKind::Test => lt::SymbolKind::BOOLEAN,
        },
        tags: None,
        deprecated: None,
        range: range(s.range),
        selection_range: range(s.range),
        children: None,
    }
}

fn publish(uri: lt::Uri, diagnostics: Vec<lt::Diagnostic>, version: Option<i32>) -> Message {
    let params = lt::PublishDiagnosticsParams::new(uri, diagnostics, version);
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".into(),
        params,
    ))
}
