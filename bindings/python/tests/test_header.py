"""The package's ctypes declarations against include/maxdyn.h, so they cannot drift:
every declared function's result and argument types equal its prototype's (parsed from
the header), the callback types equal the header's function-pointer typedefs, and the
hand-written Structures have the header's fields in its order with its types."""

import ctypes
import os
import re

import maxdyn
from maxdyn import _lib, _structs

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "..", "include", "maxdyn.h")

# C spellings → ctypes (pointers to structs the package models as Structures are typed;
# opaque handles are void pointers)
SCALARS = {
    "int32_t": ctypes.c_int32, "maxdyn_status": ctypes.c_int32, "maxdyn_shape_type": ctypes.c_int32,
    "int": ctypes.c_int, "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64, "size_t": ctypes.c_size_t,
    "double": ctypes.c_double, "void": None,
    "maxdyn_control_callback": _lib.CONTROL_CALLBACK, "maxdyn_batch_control": _lib.BATCH_CONTROL,
}
STRUCTS = {
    "maxdyn_step_stats": _structs.StepStats, "maxdyn_shape_contact": _structs.ShapeContact,
    "maxdyn_solver_options": _structs.SolverOptions, "maxdyn_urdf_options": _structs.UrdfOptions,
}
OPAQUE = {"maxdyn_builder", "maxdyn_model", "maxdyn_sim", "maxdyn_batch", "maxdyn_recorder"}


def header_text():
    with open(HEADER) as f:
        return f.read()


def c_type(decl):
    """The ctypes type of a C declaration without its name, e.g. "const double *"."""
    decl = re.sub(r"\bconst\b", "", decl).strip()
    stars = decl.count("*")
    base = decl.replace("*", "").replace("struct ", "").strip()
    if base == "char" and stars == 1:
        return ctypes.c_char_p
    if base == "void" and stars == 1:
        return ctypes.c_void_p
    if base in OPAQUE:
        assert stars in (1, 2), decl
        return ctypes.c_void_p if stars == 1 else ctypes.POINTER(ctypes.c_void_p)
    t = STRUCTS[base] if base in STRUCTS else SCALARS[base]
    for _ in range(stars):
        t = ctypes.POINTER(t)
    return t


def split_param(param):
    """("const double *", "pose") from "const double *pose" (arrays count as pointers)."""
    param = param.strip()
    m = re.match(r"^(.*?)(\w+)\s*(\[\d*\])?$", param)
    decl, name, array = m.group(1), m.group(2), m.group(3)
    return decl + ("*" if array else ""), name


def prototypes():
    """{name: (result type, [argument types])} of every function the header declares."""
    text = re.sub(r"//[^\n]*", "", header_text())
    found = {}
    for m in re.finditer(r"^([A-Za-z_][\w \*]*?)\b(maxdyn_\w+)\(([^)]*)\);", text, re.M):
        result, name, params = m.group(1), m.group(2), m.group(3).strip()
        args = [] if params in ("", "void") else [c_type(split_param(p)[0]) for p in params.split(",")]
        found[name] = (c_type(result), args)
    return found


def same(a, b):
    """ctypes types compare by identity, except that POINTER(x) is cached per x and
    CFUNCTYPE classes are compared by their signature."""
    if isinstance(a, type) and issubclass(a, ctypes._CFuncPtr):
        return isinstance(b, type) and issubclass(b, ctypes._CFuncPtr) and same(a._restype_, b._restype_) \
            and len(a._argtypes_) == len(b._argtypes_) and all(same(x, y) for x, y in zip(a._argtypes_, b._argtypes_))
    return a is b


def test_every_declaration_matches_its_prototype():
    protos = prototypes()
    assert len(protos) > 150, f"read only {len(protos)} prototypes"
    assert len(_lib.DECLARED) > 140, len(_lib.DECLARED)
    wrong = []
    for name, fn in sorted(_lib.DECLARED.items()):
        assert name in protos, f"{name} is declared in the package but not in the header"
        restype, argtypes = protos[name]
        if not same(fn.restype, restype):
            wrong.append(f"{name}: result {fn.restype} in the package, {restype} in the header")
        if len(fn.argtypes) != len(argtypes):
            wrong.append(f"{name}: {len(fn.argtypes)} arguments in the package, {len(argtypes)} in the header")
            continue
        for i, (got, want) in enumerate(zip(fn.argtypes, argtypes)):
            if not same(got, want):
                wrong.append(f"{name} argument {i}: {got} in the package, {want} in the header")
    assert not wrong, "\n".join(wrong)


def test_the_check_fails_on_a_drifted_declaration():
    """The comparison above can fail: a declaration with one argument type changed."""
    protos = prototypes()
    restype, argtypes = protos["maxdyn_sim_new"]
    drifted = list(argtypes)
    drifted[1] = ctypes.c_float
    assert not all(same(a, b) for a, b in zip(drifted, argtypes))
    assert protos["maxdyn_sim_new"][1][1] is ctypes.c_double


def struct_fields(name):
    """[(field, ctypes type)] of `typedef struct name { ... }` in the header."""
    body = re.search(r"typedef struct " + name + r" \{(.*?)\} " + name + ";", header_text(), re.S).group(1)
    fields = []
    for line in re.sub(r"//[^\n]*", "", body).split(";"):
        line = line.strip()
        if not line:
            continue
        m = re.match(r"^(.*?)(\w+)\s*(?:\[(\d+)\])?$", line)
        t = c_type(m.group(1))
        fields.append((m.group(2), t * int(m.group(3)) if m.group(3) else t))
    return fields


def test_structures_have_the_header_fields():
    for c_name, py in sorted(STRUCTS.items()):
        want = struct_fields(c_name)
        got = py._fields_
        assert [n for n, _ in got] == [n for n, _ in want], c_name
        for (n, a), (_, b) in zip(got, want):
            if hasattr(b, "_length_"):  # arrays: same element type and length
                assert a._type_ is b._type_ and a._length_ == b._length_, (c_name, n)
            else:
                assert a is b, (c_name, n, a, b)


def test_callbacks_match_their_typedefs():
    text = header_text()
    for typedef, py in (("maxdyn_control_callback", _lib.CONTROL_CALLBACK), ("maxdyn_batch_control", _lib.BATCH_CONTROL)):
        m = re.search(r"typedef (\w+) \(\*" + typedef + r"\)\(([^)]*)\);", text)
        args = [c_type(split_param(p)[0]) for p in m.group(2).split(",")]
        assert py._restype_ is c_type(m.group(1)), typedef
        assert len(py._argtypes_) == len(args) and all(same(a, b) for a, b in zip(py._argtypes_, args)), typedef


def test_the_library_exports_every_declared_function():
    for name in _lib.DECLARED:
        assert hasattr(maxdyn._cdll, name), name
