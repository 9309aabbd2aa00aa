//! The Julia binding (bindings/julia/src/*.jl) against the generated header. The binding
//! declares each C function once in c_api.jl (`@cfunc name(arg::T, ...)::R`, resolved
//! when the module loads) and calls it by name. Checked here: every declaration's name,
//! argument and return types are the header's, and no deprecated alias is declared; the
//! C structs of c_structs.jl have the header's fields in its order and types; every call
//! names a declared function with its number of arguments, and nothing reaches C another
//! way; every declaration is used; and every C function the Python package declares is
//! called from Julia too, unless listed below with the reason. Julia cannot be installed
//! on this project's machines, so this is what keeps the binding honest, with a syntax
//! check of every .jl file by tree-sitter-julia (tests/julia_syntax, installed by
//! tests/setup.sh). The checker's own tests show each check fails when it should.

#[path = "common/require.rs"]
mod require;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// A type reduced to what the ABI sees: "i32", "f64", "usize", "u64", "void", "char",
/// "opaque" (a struct the header only declares), "fn" (a function pointer),
/// "struct NAME" (by value), "ptr(T)".
type Abi = String;

#[derive(Debug, Clone, PartialEq)]
struct Signature {
    ret: Abi,
    args: Vec<Abi>,
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---- the C header

fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    // C++-only lines (`extern "C" {`, enum base types) sit between `#ifdef __cplusplus`
    // and `#endif`: C sees the header without them
    let mut cplusplus = false;
    let mut kept = Vec::new();
    for line in out.lines() {
        let directive = line.trim_start();
        if directive.starts_with("#ifdef __cplusplus") {
            cplusplus = true;
        } else if cplusplus && directive.starts_with("#endif") {
            cplusplus = false;
        } else if !cplusplus && !directive.starts_with('#') && !directive.starts_with("MAXDYN_DEPRECATED(") {
            // (a deprecated alias's attribute line does not change its signature)
            kept.push(line.split("//").next().unwrap());
        }
    }
    kept.join("\n")
}

/// Top-level statements (split at `;` outside braces).
fn statements(text: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ';' if depth == 0 => {
                out.push(std::mem::take(&mut cur).split_whitespace().collect::<Vec<_>>().join(" "));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out
}

fn last_identifier(s: &str) -> &str {
    let s = s.trim_end();
    let start = s.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    &s[start..]
}

struct CTypes {
    aliases: HashMap<String, Abi>,
}

impl CTypes {
    fn from_statements(stmts: &[String]) -> CTypes {
        let mut aliases: HashMap<String, Abi> = HashMap::new();
        for s in stmts.iter().filter_map(|s| s.strip_prefix("typedef ")) {
            if let Some(i) = s.find("(*") {
                let name = &s[i + 2..s[i..].find(')').map(|j| i + j).unwrap()];
                aliases.insert(name.into(), "fn".into());
            } else if s.contains('{') {
                aliases.insert(last_identifier(s).into(), format!("struct {}", last_identifier(s)));
            } else if let Some(rest) = s.strip_prefix("struct ") {
                aliases.insert(last_identifier(rest).into(), "opaque".into());
            } else {
                let name = last_identifier(s);
                let base = s[..s.len() - name.len()].trim();
                let abi = base_abi(base).unwrap_or_else(|| panic!("typedef of unknown type `{base}`"));
                aliases.insert(name.into(), abi);
            }
        }
        CTypes { aliases }
    }

    /// A C type (`const struct maxdyn_sim *`, `double`, `maxdyn_status`) as its ABI.
    fn abi(&self, ty: &str) -> Abi {
        let stars = ty.matches('*').count();
        let base: Vec<&str> = ty.split(|c: char| c.is_whitespace() || c == '*').filter(|w| !w.is_empty() && *w != "const" && *w != "struct").collect();
        assert_eq!(base.len(), 1, "cannot read the C type `{ty}`");
        let mut abi = base_abi(base[0]).or_else(|| self.aliases.get(base[0]).cloned()).unwrap_or_else(|| panic!("unknown C type `{ty}`"));
        for _ in 0..stars {
            abi = format!("ptr({abi})");
        }
        abi
    }
}

fn base_abi(name: &str) -> Option<Abi> {
    Some(match name {
        "int32_t" | "int" => "i32",
        "double" => "f64",
        "size_t" => "usize",
        "uint64_t" => "u64",
        "uint32_t" => "u32",
        "void" => "void",
        "char" => "char",
        "bool" => "bool",
        _ => return None,
    }
    .into())
}

/// Every function the header declares, by name.
fn header_signatures(header: &str) -> HashMap<String, Signature> {
    let stmts = statements(&strip_comments(header));
    let types = CTypes::from_statements(&stmts);
    let mut out = HashMap::new();
    for s in stmts.iter().filter(|s| !s.starts_with("typedef") && s.contains('(')) {
        let open = s.find('(').unwrap();
        let head = &s[..open];
        let name = last_identifier(head);
        let ret = types.abi(&head[..head.len() - name.len()]);
        let params = s[open + 1..s.rfind(')').unwrap()].trim();
        let args = if params == "void" || params.is_empty() {
            Vec::new()
        } else {
            params.split(',').map(|p| types.abi(&p[..p.len() - last_identifier(p).len()])).collect()
        };
        out.insert(name.to_string(), Signature { ret, args });
    }
    out
}

// ---- the Julia binding

/// A Julia type of a declaration as its ABI (`Ptr{Cvoid}` becomes "ptr(void)", which
/// stands for any object or function pointer).
fn julia_abi(ty: &str) -> Abi {
    let ty = ty.trim();
    if let Some(inner) = ty.strip_prefix("Ptr{").or_else(|| ty.strip_prefix("Ref{")).and_then(|t| t.strip_suffix('}')) {
        return format!("ptr({})", julia_abi(inner));
    }
    if let Some(inner) = ty.strip_prefix("NTuple{").and_then(|t| t.strip_suffix('}')) {
        let (n, elem) = inner.split_once(',').unwrap_or_else(|| panic!("cannot read the Julia type `{ty}`"));
        return format!("{}[{}]", julia_abi(elem), n.trim());
    }
    match ty {
        "Int32" | "Cint" => "i32",
        "Float64" | "Cdouble" => "f64",
        "Csize_t" => "usize",
        "UInt64" | "Culonglong" => "u64",
        "UInt32" | "Cuint" => "u32",
        "Cvoid" | "Nothing" => "void",
        "Cchar" | "UInt8" => "char",
        "Cstring" => "ptr(char)",
        "Bool" => "bool",
        // a Julia struct mirrors the C struct of its name: UrdfOptions ↔ maxdyn_urdf_options
        other if other.chars().all(|c| c.is_ascii_alphanumeric()) && other.starts_with(|c: char| c.is_ascii_uppercase()) => return format!("struct maxdyn_{}", snake(other)),
        other => return format!("julia {other}"),
    }
    .into()
}

/// CamelCase → snake_case.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Splits at the commas not inside brackets or strings.
fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut in_string) = (Vec::new(), String::new(), 0i32, false);
    for c in s.chars() {
        match c {
            '"' => in_string = !in_string,
            '(' | '{' | '[' if !in_string => depth += 1,
            ')' | '}' | ']' if !in_string => depth -= 1,
            ',' if depth == 0 && !in_string => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The text from `open` (an opening bracket) to its match, exclusive; and the index after.
fn bracketed(s: &str, open: usize) -> (&str, usize) {
    let (mut depth, mut in_string) = (0i32, false);
    for (i, c) in s[open..].char_indices() {
        match c {
            '"' => in_string = !in_string,
            '(' | '{' if !in_string => depth += 1,
            ')' | '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return (&s[open + 1..open + i], open + i + 1);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced brackets after: {}", &s[open..s.len().min(open + 80)])
}

/// The type after the last top-level `::` of an argument expression.
fn annotated_type(arg: &str) -> &str {
    let bytes = arg.as_bytes();
    let (mut depth, mut at) = (0i32, None);
    for i in 0..bytes.len() {
        match bytes[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            b':' if depth == 0 && i + 1 < bytes.len() && bytes[i + 1] == b':' => at = Some(i + 2),
            _ => {}
        }
    }
    &arg[at.unwrap_or_else(|| panic!("ccall argument without a type: `{}`", arg.trim()))..]
}

// ---- the comparison

fn compatible(julia: &str, c: &str) -> bool {
    if julia == c {
        return true;
    }
    // Ptr{Cvoid} carries any handle, void pointer or callback
    match (julia.strip_prefix("ptr("), c.strip_prefix("ptr(")) {
        (Some("void)"), _) if c == "fn" => true,
        (Some("void)"), Some("opaque)" | "void)")) => true,
        (Some(j), Some(cc)) => compatible(&j[..j.len() - 1], &cc[..cc.len() - 1]),
        _ => false,
    }
}

/// One line per disagreement between the ccalls and the header.
fn mismatches(header: &HashMap<String, Signature>, calls: &[(String, Signature)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, julia) in calls {
        let Some(c) = header.get(name) else {
            out.push(format!("{name}: not in the header"));
            continue;
        };
        if julia.args.len() != c.args.len() {
            out.push(format!("{name}: {} arguments in Julia, {} in the header", julia.args.len(), c.args.len()));
            continue;
        }
        if !compatible(&julia.ret, &c.ret) {
            out.push(format!("{name}: returns {} in Julia, {} in the header", julia.ret, c.ret));
        }
        for (k, (j, h)) in julia.args.iter().zip(&c.args).enumerate() {
            if !compatible(j, h) {
                out.push(format!("{name}: argument {} is {j} in Julia, {h} in the header", k + 1));
            }
        }
    }
    out
}


// ---- the header's deprecated aliases and structs

/// The functions the header marks `MAXDYN_DEPRECATED(...)`.
fn deprecated_functions(header: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = header.lines();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("MAXDYN_DEPRECATED(") {
            let decl = lines.by_ref().find(|l| l.contains('(')).expect("a declaration after MAXDYN_DEPRECATED");
            out.push(last_identifier(&decl[..decl.find('(').unwrap()]).to_string());
        }
    }
    out
}

/// The fields (name, ABI; an array as "f64[3]") of every struct the header defines.
fn header_structs(header: &str) -> HashMap<String, Vec<(String, Abi)>> {
    let stmts = statements(&strip_comments(header));
    let types = CTypes::from_statements(&stmts);
    let mut out = HashMap::new();
    for s in stmts.iter().filter(|s| s.starts_with("typedef struct") && s.contains('{')) {
        let body = &s[s.find('{').unwrap() + 1..s.rfind('}').unwrap()];
        let fields = body
            .split(';')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| {
                let (decl, len) = match f.split_once('[') {
                    Some((d, n)) => (d.trim(), Some(n.trim_end_matches(']').trim())),
                    None => (f, None),
                };
                let name = last_identifier(decl);
                let abi = types.abi(&decl[..decl.len() - name.len()]);
                (name.to_string(), len.map_or(abi.clone(), |n| format!("{abi}[{n}]")))
            })
            .collect();
        out.insert(last_identifier(s).to_string(), fields);
    }
    out
}

// ---- the binding's sources

/// The binding's .jl files (bindings/julia/src and any beside it; not test/): (name, text).
fn binding_sources() -> Vec<(String, String)> {
    let root = manifest_dir().join("bindings").join("julia");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [root.clone(), root.join("src")] {
        files.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "jl")));
    }
    files.sort();
    files.into_iter().map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap())).collect()
}

/// How a line declares a C function (at the start of the line: the macro's own docstring
/// shows the form indented).
const DECLARE: &str = "@cfunc ";

/// Every `@cfunc name(arg::T, ...)::R` in `source`: (name, signature).
fn julia_declarations(source: &str) -> Vec<(String, Signature)> {
    let mut out = Vec::new();
    for (at, _) in source.match_indices(&format!("\n{DECLARE}")) {
        let rest = &source[at + 1 + DECLARE.len()..];
        let open = rest.find('(').unwrap();
        let name = rest[..open].trim().to_string();
        let (args, after) = bracketed(rest, open);
        let ret = rest[after..].strip_prefix("::").unwrap_or_else(|| panic!("{name}: no return type"));
        let end = ret.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '{' || c == '}')).unwrap_or(ret.len());
        let args = split_top_level(args).iter().map(|a| julia_abi(annotated_type(a))).collect();
        out.push((name, Signature { ret: julia_abi(&ret[..end]), args }));
    }
    out
}

/// Every `struct Name ... end` of `source`: (name, fields as (name, ABI)).
fn julia_structs(source: &str) -> Vec<(String, Vec<(String, Abi)>)> {
    let mut out = Vec::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix("struct ") else { continue };
        let fields = lines
            .by_ref()
            .take_while(|l| l.trim() != "end")
            .filter_map(|l| l.trim().split_once("::"))
            .map(|(f, t)| (f.trim().to_string(), julia_abi(t)))
            .collect();
        out.push((name.trim().to_string(), fields));
    }
    out
}

/// A use of a C function outside its declaration: the name, and the number of arguments
/// when it is called (`None` when it is passed as a value).
#[derive(Debug, PartialEq)]
struct Use {
    name: String,
    args: Option<usize>,
}

/// The `maxdyn_...` names `source` uses as code: comment lines and names quoted in
/// backticks (docstrings) are text.
fn julia_uses(source: &str) -> Vec<Use> {
    let code: String = source.lines().filter(|l| !l.trim_start().starts_with('#') && !l.starts_with(DECLARE)).map(|l| format!("{l}\n")).collect();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("maxdyn_") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '`') {
            continue;
        }
        let len = code[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(code.len() - at);
        let name = code[at..at + len].to_string();
        let args = code[at + len..].starts_with('(').then(|| {
            let (inside, _) = bracketed(&code, at + len);
            split_top_level(inside).len()
        });
        out.push(Use { name, args });
    }
    out
}

/// One line per call or reference that is not to a declared function with its arguments.
fn bad_uses(declared: &HashMap<String, Signature>, uses: &[Use]) -> Vec<String> {
    let mut out = Vec::new();
    for u in uses {
        match (declared.get(&u.name), u.args) {
            (None, _) => out.push(format!("{}: used but not declared in c_api.jl", u.name)),
            (Some(sig), Some(n)) if n != sig.args.len() => {
                out.push(format!("{}: called with {n} arguments, declared with {}", u.name, sig.args.len()))
            }
            _ => {}
        }
    }
    out
}

/// One line per Julia struct whose fields are not its header struct's.
fn struct_mismatches(header: &HashMap<String, Vec<(String, Abi)>>, julia: &[(String, Vec<(String, Abi)>)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, fields) in julia {
        let c_name = format!("maxdyn_{}", snake(name));
        match header.get(&c_name) {
            None => out.push(format!("{name}: no struct {c_name} in the header")),
            Some(c) if c != fields => out.push(format!("{name}: fields {fields:?} in Julia, {c:?} in the header")),
            _ => {}
        }
    }
    out
}

// ---- the surface: what Python calls, Julia calls

/// The functions the Python package declares (bindings/python/maxdyn/_lib.py).
fn python_functions() -> Vec<String> {
    let lib = std::fs::read_to_string(manifest_dir().join("bindings").join("python").join("maxdyn").join("_lib.py")).unwrap();
    lib.match_indices("declare(\"").map(|(at, m)| lib[at + m.len()..].split('"').next().unwrap().to_string()).collect()
}

/// Python functions Julia leaves out on purpose, and why.
const NOT_IN_JULIA: &[(&str, &str)] = &[
    ("maxdyn_sim_get_step_stats", "step_stats reads them with maxdyn_sim_get_step_stats_sized, as Python does"),
    ("maxdyn_sim_get_solver_options", "Python keeps it only for its deprecated Sim.solver_options(); Julia has options(sim)"),
    ("maxdyn_sim_set_solver_options", "Python keeps it only for its deprecated Sim.set_solver_options(); Julia has set_options!"),
];

/// The Python functions no Julia code uses (beyond NOT_IN_JULIA).
fn missing_from_julia(python: &[String], used: &[String]) -> Vec<String> {
    let mut missing: Vec<String> =
        python.iter().filter(|f| !used.contains(f) && !NOT_IN_JULIA.iter().any(|(n, _)| n == f)).cloned().collect();
    missing.sort();
    missing.dedup();
    missing
}

// ---- the checks

struct Binding {
    declared: Vec<(String, Signature)>,
    structs: Vec<(String, Vec<(String, Abi)>)>,
    uses: Vec<Use>,
}

fn read_binding() -> Binding {
    let mut b = Binding { declared: Vec::new(), structs: Vec::new(), uses: Vec::new() };
    for (file, source) in binding_sources() {
        let found = julia_declarations(&format!("\n{source}"));
        assert!(found.is_empty() || file == "c_api.jl", "{file}: C functions are declared in c_api.jl only");
        assert_eq!(found.len(), source.lines().filter(|l| l.starts_with(DECLARE)).count(), "{file}: some declarations were not read");
        b.declared.extend(found);
        if file == "c_structs.jl" {
            b.structs = julia_structs(&source);
        }
        b.uses.extend(julia_uses(&source));
        // the one ccall is library.jl's `@cfunc` macro: nothing reaches C another way
        assert!(!source.contains("@ccall"), "{file}: an @ccall; declare the function in c_api.jl instead");
        let expected = usize::from(file == "library.jl");
        assert_eq!(source.matches("ccall(").count(), expected, "{file}: a ccall( besides @cfunc's");
    }
    b
}

fn declared_map(declared: &[(String, Signature)]) -> HashMap<String, Signature> {
    declared.iter().cloned().collect()
}

#[test]
fn every_julia_declaration_matches_the_header() {
    let header_text = real_header();
    let header = header_signatures(&header_text);
    let b = read_binding();
    println!("{} C functions declared against {} in the header", b.declared.len(), header.len());
    assert!(b.declared.len() >= 160, "only {} declarations found", b.declared.len());
    let mut bad = mismatches(&header, &b.declared);
    let mut seen = std::collections::HashSet::new();
    bad.extend(b.declared.iter().filter(|(n, _)| !seen.insert(n.clone())).map(|(n, _)| format!("{n}: declared twice")));
    let deprecated = deprecated_functions(&header_text);
    assert!(deprecated.len() >= 10, "read only {} deprecated aliases", deprecated.len());
    bad.extend(b.declared.iter().filter(|(n, _)| deprecated.contains(n)).map(|(n, _)| format!("{n}: a deprecated alias")));
    assert!(bad.is_empty(), "the Julia declarations disagree with include/maxdyn.h:\n{}", bad.join("\n"));
}

#[test]
fn julia_structs_have_the_header_fields() {
    let header = header_structs(&real_header());
    let b = read_binding();
    let names: Vec<&str> = b.structs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["UrdfOptions", "ShapeContact", "StepStats", "SolverOptions"], "the structs of c_structs.jl");
    let bad = struct_mismatches(&header, &b.structs);
    assert!(bad.is_empty(), "the Julia structs disagree with include/maxdyn.h:\n{}", bad.join("\n"));
    // every struct a declaration passes or returns is one of these
    let checked: Vec<String> = names.iter().map(|n| format!("struct maxdyn_{}", snake(n))).collect();
    for (name, sig) in &b.declared {
        for abi in sig.args.iter().chain([&sig.ret]) {
            if let Some(i) = abi.find("struct ") {
                let s = abi[i..].trim_end_matches(')');
                assert!(checked.iter().any(|c| c == s), "{name}: {s} is not a checked struct of c_structs.jl");
            }
        }
    }
}

#[test]
fn every_julia_call_is_declared_with_its_arguments_and_every_declaration_used() {
    let b = read_binding();
    let declared = declared_map(&b.declared);
    let bad = bad_uses(&declared, &b.uses);
    assert!(bad.is_empty(), "the Julia binding calls C functions it does not declare as it calls them:\n{}", bad.join("\n"));
    let unused: Vec<&String> = b.declared.iter().map(|(n, _)| n).filter(|n| !b.uses.iter().any(|u| &&u.name == n)).collect();
    assert!(unused.is_empty(), "declared in c_api.jl but never used: {unused:?}");
    println!("{} uses of {} declared functions", b.uses.len(), declared.len());
}

#[test]
fn julia_reaches_every_function_the_python_package_declares() {
    let python = python_functions();
    assert!(python.len() >= 150, "read only {} Python declarations", python.len());
    let b = read_binding();
    let used: Vec<String> = b.uses.iter().map(|u| u.name.clone()).collect();
    for (name, why) in NOT_IN_JULIA {
        assert!(python.iter().any(|p| p == name), "NOT_IN_JULIA lists {name}, which Python no longer declares ({why})");
        assert!(!used.contains(&name.to_string()), "NOT_IN_JULIA lists {name}, which Julia now calls");
    }
    let missing = missing_from_julia(&python, &used);
    println!("Python declares {} functions; Julia uses all but {} listed with a reason", python.len(), NOT_IN_JULIA.len());
    assert!(missing.is_empty(), "the Python package calls C functions no Julia code calls:\n{}", missing.join("\n"));
}

#[test]
fn checker_fails_when_a_header_signature_changes() {
    let calls = read_binding().declared;
    let original = real_header();
    let cases = [
        // an argument's type
        ("maxdyn_status maxdyn_sim_get_body_state(const struct maxdyn_sim *sim, int32_t body, double *out);",
         "maxdyn_status maxdyn_sim_get_body_state(const struct maxdyn_sim *sim, size_t body, double *out);",
         "maxdyn_sim_get_body_state: argument 2 is i32 in Julia, usize in the header"),
        // an added argument
        ("maxdyn_status maxdyn_sim_step(struct maxdyn_sim *sim);",
         "maxdyn_status maxdyn_sim_step(struct maxdyn_sim *sim, int32_t n);",
         "maxdyn_sim_step: 1 arguments in Julia, 2 in the header"),
        // the return type
        ("const char *maxdyn_version(void);", "int32_t maxdyn_version(void);", "maxdyn_version: returns ptr(char) in Julia, i32 in the header"),
        // a renamed function
        ("maxdyn_status maxdyn_builder_new(struct maxdyn_builder **out);",
         "maxdyn_status maxdyn_builder_create(struct maxdyn_builder **out);",
         "maxdyn_builder_new: not in the header"),
        // a pointer's target
        ("maxdyn_status maxdyn_sim_get_time(const struct maxdyn_sim *sim, double *out);",
         "maxdyn_status maxdyn_sim_get_time(const struct maxdyn_sim *sim, int32_t *out);",
         "maxdyn_sim_get_time: argument 2 is ptr(f64) in Julia, ptr(i32) in the header"),
    ];
    assert!(mismatches(&header_signatures(&original), &calls).is_empty());
    for (from, to, expected) in cases {
        assert!(original.contains(from), "the header no longer has `{from}`");
        let changed = header_signatures(&original.replace(from, to));
        assert_eq!(mismatches(&changed, &calls), vec![expected.to_string()], "after changing `{from}`");
    }
}

#[test]
fn checker_fails_when_a_struct_field_changes() {
    let structs = read_binding().structs;
    let original = real_header();
    assert!(struct_mismatches(&header_structs(&original), &structs).is_empty());
    // a field added at the end (the Julia UrdfOptions once lacked mesh_roots, so the
    // library read past the end of the Julia struct)
    let grown = original.replace("    int32_t integrator;\n} maxdyn_solver_options;", "    int32_t integrator;\n    int32_t threads;\n} maxdyn_solver_options;");
    assert_ne!(grown, original, "the header's maxdyn_solver_options no longer ends in integrator");
    let bad = struct_mismatches(&header_structs(&grown), &structs);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].starts_with("SolverOptions: fields") && bad[0].contains("\"threads\""), "{bad:?}");
    // an array's length
    let shorter = original.replace("    double friction_force[3];\n} maxdyn_shape_contact;", "    double friction_force[2];\n} maxdyn_shape_contact;");
    assert_ne!(shorter, original, "the header's maxdyn_shape_contact no longer ends in friction_force[3]");
    let bad = struct_mismatches(&header_structs(&shorter), &structs);
    assert!(bad.len() == 1 && bad[0].contains("f64[2]"), "{bad:?}");
}

#[test]
fn checker_fails_on_undeclared_calls_wrong_arity_and_python_functions_julia_lacks() {
    let declared = declared_map(&read_binding().declared);
    let source = "# maxdyn_not_code(1)\n\"\"\"`maxdyn_doc_only(x)`\"\"\"\nf(s) = check(maxdyn_sim_step(s, 2))\n\
                  g(s) = read_double(maxdyn_sim_get_dt, s) + maxdyn_sim_get_nothing(s)\nh() = maxdyn_version()\n";
    let uses = julia_uses(source);
    let names: Vec<&str> = uses.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["maxdyn_sim_step", "maxdyn_sim_get_dt", "maxdyn_sim_get_nothing", "maxdyn_version"]);
    assert_eq!(uses[1].args, None);
    assert_eq!(uses[3].args, Some(0));
    assert_eq!(
        bad_uses(&declared, &uses),
        ["maxdyn_sim_step: called with 2 arguments, declared with 1", "maxdyn_sim_get_nothing: used but not declared in c_api.jl"]
    );
    let python = vec!["maxdyn_sim_step".to_string(), "maxdyn_sim_get_step_stats".to_string(), "maxdyn_batch_new".to_string()];
    assert_eq!(missing_from_julia(&python, &["maxdyn_sim_step".to_string()]), ["maxdyn_batch_new"]);
}

#[test]
fn reads_c_and_julia_types() {
    let header = "typedef int32_t maxdyn_status;\ntypedef struct maxdyn_sim maxdyn_sim;\n\
                  typedef int (*cb)(struct maxdyn_sim *sim, void *user);\n\
                  typedef struct opts { double a; int32_t b; const char *c; double d[3]; } opts;\n\
                  // a comment (x);\nmaxdyn_status f(const struct maxdyn_sim *sim,\n    double *out, size_t n, cb c, void *u, struct maxdyn_sim **made);\n\
                  opts g(void);\nMAXDYN_DEPRECATED(\"use f\")\nmaxdyn_status h(const struct maxdyn_sim *sim,\n    double *out);\n";
    let sigs = header_signatures(header);
    assert_eq!(sigs["f"].ret, "i32");
    assert_eq!(sigs["f"].args, ["ptr(opaque)", "ptr(f64)", "usize", "fn", "ptr(void)", "ptr(ptr(opaque))"]);
    assert_eq!(sigs["g"], Signature { ret: "struct opts".into(), args: vec![] });
    assert_eq!(deprecated_functions(header), ["h"]);
    let fields = &header_structs(header)["opts"];
    assert_eq!(fields, &[("a".into(), "f64".into()), ("b".into(), "i32".into()), ("c".into(), "ptr(char)".into()), ("d".into(), "f64[3]".into())]);
    let calls = julia_declarations("\n@cfunc f(sim::Ptr{Cvoid}, out::Ptr{Cdouble},\n        n::Csize_t, c::Ptr{Cvoid}, u::Ptr{Cvoid}, made::Ptr{Ptr{Cvoid}})::Int32\n    @cfunc shown(x::Int32)::Int32\n");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].1.args, ["ptr(void)", "ptr(f64)", "usize", "ptr(void)", "ptr(void)", "ptr(ptr(void))"]);
    assert!(mismatches(&sigs, &calls).is_empty());
    let structs = julia_structs("struct Opts\n    a::Float64\n    b::Int32\n    c::Ptr{UInt8}\n    d::NTuple{3,Float64}\nend\n");
    assert_eq!(structs[0].0, "Opts");
    assert_eq!(structs[0].1, fields.clone());
}

/// The binding's sources and its tests, parsed by tree-sitter-julia (node, with the
/// packages tests/setup.sh installs into tests/julia_syntax/node_modules).
#[test]
fn julia_sources_parse() {
    let test = "julia_sources_parse";
    let dir = manifest_dir().join("tests").join("julia_syntax");
    let installed = dir.join("node_modules").join("tree-sitter-julia").join("tree-sitter-julia.wasm").exists();
    if !require::require(test, "julia-syntax", installed && require::on_path("node"), "run `bash tests/setup.sh` (node and `npm ci` in tests/julia_syntax)") {
        return;
    }
    let root = manifest_dir().join("bindings").join("julia");
    let mut files: Vec<PathBuf> = Vec::new();
    for sub in ["src", "test"] {
        files.extend(std::fs::read_dir(root.join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "jl")));
    }
    files.sort();
    assert!(files.len() >= 10, "only {} .jl files", files.len());
    let out = Command::new("node").arg(dir.join("check.js")).args(&files).output().expect("run node");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success() && text.contains(&format!("{} files parsed, 0 syntax errors", files.len())), "{text}");
}

#[test]
fn syntax_check_finds_an_error() {
    let test = "syntax_check_finds_an_error";
    let dir = manifest_dir().join("tests").join("julia_syntax");
    let installed = dir.join("node_modules").join("tree-sitter-julia").join("tree-sitter-julia.wasm").exists();
    if !require::require(test, "julia-syntax", installed && require::on_path("node"), "run `bash tests/setup.sh`") {
        return;
    }
    let scratch = std::env::temp_dir().join(format!("maxdyn_julia_syntax_{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let bad = scratch.join("bad.jl");
    std::fs::write(&bad, "function f(s)\n    check(maxdyn_sim_step(s)\nend\n").unwrap();
    let out = Command::new("node").arg(dir.join("check.js")).arg(&bad).output().expect("run node");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    std::fs::remove_dir_all(&scratch).ok();
    assert!(!out.status.success() && text.contains("bad.jl:2:29: missing )"), "{text}");
}

fn real_header() -> String {
    std::fs::read_to_string(manifest_dir().join("include").join("maxdyn.h")).unwrap()
}
