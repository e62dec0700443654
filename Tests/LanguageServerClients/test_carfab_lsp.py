"""carfab --lsp driven by pytest-lsp with its bundled client capability profiles, for the
methods Neovim 0.7 lacks: semantic tokens and inlay hints. pytest-lsp checks each answer
against the capabilities of the client it plays."""

import os
import pathlib

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SCRIPT = 'car sports # a quote\nset drivetrain 4wd\necho "${n} cars"\nvar n 2\n'


CONFIG = ClientServerConfig(server_command=[os.environ["CARFAB"], "--lsp"])


async def start(lsp_client: LanguageClient, profile: str):
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities(profile)))
    lsp_client.server_capabilities = result.capabilities


# Semantic tokens: VS Code's profile and Neovim's have them.
@pytest_lsp.fixture(config=CONFIG, params=["visual-studio-code", "neovim@v0.11.0"])
async def client(lsp_client: LanguageClient, request):
    await start(lsp_client, request.param)
    yield
    await lsp_client.shutdown_session()


# Inlay hints: Neovim's profile has them (VS Code 1.65's bundled one does not).
@pytest_lsp.fixture(config=CONFIG, params=["neovim@v0.11.0"])
async def neovim(lsp_client: LanguageClient, request):
    await start(lsp_client, request.param)
    yield
    await lsp_client.shutdown_session()


def open_script(client: LanguageClient, tmp_path: pathlib.Path) -> str:
    path = tmp_path / "quote.carfab"
    path.write_text(SCRIPT)
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="carfab", version=1, text=SCRIPT)
        )
    )
    return uri


async def test_semantic_tokens_name_every_word(client: LanguageClient, tmp_path):
    uri = open_script(client, tmp_path)
    legend = client.server_capabilities.semantic_tokens_provider.legend
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    lines = SCRIPT.split("\n")
    decoded, line, start = [], 0, 0
    data = result.data
    for i in range(0, len(data), 5):
        line += data[i]
        start = start + data[i + 1] if data[i] == 0 else data[i + 1]
        text = lines[line].encode("utf-16-le")[2 * start : 2 * (start + data[i + 2])].decode("utf-16-le")
        modifiers = [m for bit, m in enumerate(legend.token_modifiers) if data[i + 4] & (1 << bit)]
        decoded.append((text, legend.token_types[data[i + 3]], modifiers))
    assert decoded == [
        ("car", "function", []), ("sports", "enumMember", []), ("# a quote", "comment", []),
        ("set", "function", []), ("drivetrain", "enumMember", []), ("4wd", "enumMember", []),
        ("echo", "function", []), ('"${n} cars"', "string", []),
        ("var", "function", []), ("n", "variable", ["declaration"]), ("2", "number", []),
    ]


async def test_inlay_hints_give_the_running_price(neovim: LanguageClient, tmp_path):
    uri = open_script(neovim, tmp_path)
    hints = await neovim.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=4, character=0)),
        )
    )
    assert [(h.position.line, h.position.character, h.label) for h in hints] == [
        (0, 10, "$68,300.00"),
        (1, 18, "$70,800.00"),
    ]
