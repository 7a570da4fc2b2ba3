"""The type stubs (ply/_ply.pyi) describe the native module as built: the same names, the same
methods, the same parameters."""

import ast
import inspect
import pathlib

import ply
from ply import _ply

STUB = pathlib.Path(ply.__file__).with_name("_ply.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def test_the_stub_names_what_the_module_has():
    tree = stub_tree()
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    native = {name for name in dir(_ply) if not name.startswith("_")}
    assert stubbed == native


def test_stubbed_functions_take_the_native_parameters():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            signature = inspect.signature(getattr(_ply, node.name))
            stubbed = [a.arg for a in node.args.args + node.args.kwonlyargs]
            assert stubbed == [p for p in signature.parameters if p != "kwargs"], node.name


def test_stubbed_classes_have_the_native_members():
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef):
            members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            native = {m for m in dir(getattr(_ply, node.name)) if not m.startswith("_")}
            assert {m for m in members if not m.startswith("_")} == native, node.name


def test_the_package_is_typed_and_documented():
    assert STUB.with_name("py.typed").exists()
    for name in ply.__all__:
        value = getattr(ply, name)
        if callable(value) and not isinstance(value, type) or name in ("Game", "State", "Agent"):
            assert value.__doc__, name
