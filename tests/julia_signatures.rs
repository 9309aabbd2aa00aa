//! Every `@ccall` of the Julia binding (bindings/julia/src/*.jl) against the generated
//! header: the function exists, and its argument and return types are the header's.
//! Julia cannot run on this project's machines, so this is what keeps the binding honest.
//! The checker's own tests show it fails when a header signature changes.

use std::collections::HashMap;
use std::path::PathBuf;

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

/// A Julia type of a `@ccall` as its ABI (`Ptr{Cvoid}` becomes "ptr(void)", which
/// stands for any object or function pointer).
fn julia_abi(ty: &str) -> Abi {
    let ty = ty.trim();
    if let Some(inner) = ty.strip_prefix("Ptr{").or_else(|| ty.strip_prefix("Ref{")).and_then(|t| t.strip_suffix('}')) {
        return format!("ptr({})", julia_abi(inner));
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

/// How the binding calls C (the library is always `libmaxdyn`).
const CCALL: &str = "@ccall libmaxdyn.";

/// Every `@ccall libmaxdyn.name(args::T...)::R` in `source`: (name, signature).
fn julia_ccalls(source: &str) -> Vec<(String, Signature)> {
    let mut out = Vec::new();
    for (at, _) in source.match_indices(CCALL) {
        let rest = &source[at + "@ccall ".len()..];
        let dot = rest.find('.').unwrap();
        let open = rest.find('(').unwrap();
        let name = rest[dot + 1..open].trim().to_string();
        let (args, after) = bracketed(rest, open);
        let ret = rest[after..].strip_prefix("::").unwrap_or_else(|| panic!("{name}: no return type"));
        let end = ret.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '{' || c == '}')).unwrap_or(ret.len());
        let args = split_top_level(args).iter().map(|a| julia_abi(annotated_type(a))).collect();
        out.push((name, Signature { ret: julia_abi(&ret[..end]), args }));
    }
    out
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

/// The binding's .jl files: bindings/julia/src, and any left beside it (all but test/).
fn binding_sources() -> Vec<(PathBuf, String)> {
    let root = manifest_dir().join("bindings").join("julia");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [root.clone(), root.join("src")] {
        files.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "jl")));
    }
    files.sort();
    files.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

fn real_header() -> String {
    std::fs::read_to_string(manifest_dir().join("include").join("maxdyn.h")).unwrap()
}

#[test]
fn every_julia_ccall_matches_the_header() {
    let header = header_signatures(&real_header());
    let mut calls = Vec::new();
    for (path, source) in binding_sources() {
        let found = julia_ccalls(&source);
        assert_eq!(found.len(), source.matches(CCALL).count(), "{}: some ccalls were not read", path.display());
        assert!(!source.contains("ccall("), "{}: a ccall( this test does not read", path.display());
        calls.extend(found);
    }
    println!("{} ccalls checked against {} header functions", calls.len(), header.len());
    assert!(calls.len() >= 70, "only {} ccalls found", calls.len());
    let bad = mismatches(&header, &calls);
    assert!(bad.is_empty(), "the Julia binding disagrees with include/maxdyn.h:\n{}", bad.join("\n"));
}

#[test]
fn checker_fails_when_a_header_signature_changes() {
    let calls: Vec<_> = binding_sources().iter().flat_map(|(_, s)| julia_ccalls(s)).collect();
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
fn reads_c_and_julia_types() {
    let header = "typedef int32_t maxdyn_status;\ntypedef struct maxdyn_sim maxdyn_sim;\n\
                  typedef int (*cb)(struct maxdyn_sim *sim, void *user);\n\
                  typedef struct opts { double a; int32_t b; } opts;\n\
                  // a comment (x);\nmaxdyn_status f(const struct maxdyn_sim *sim,\n    double *out, size_t n, cb c, void *u, struct maxdyn_sim **made);\n\
                  opts g(void);\n";
    let sigs = header_signatures(header);
    assert_eq!(sigs["f"].ret, "i32");
    assert_eq!(sigs["f"].args, ["ptr(opaque)", "ptr(f64)", "usize", "fn", "ptr(void)", "ptr(ptr(opaque))"]);
    assert_eq!(sigs["g"], Signature { ret: "struct opts".into(), args: vec![] });
    let calls = julia_ccalls("x = @ccall libmaxdyn.f(s::Ptr{Cvoid}, doubles(v, 3, \"a, b\")::Ptr{Cdouble},\n  Csize_t(n)::Csize_t, C_NULL::Ptr{Cvoid}, C_NULL::Ptr{Cvoid}, out::Ptr{Ptr{Cvoid}})::Int32 + 1");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].1.args, ["ptr(void)", "ptr(f64)", "usize", "ptr(void)", "ptr(void)", "ptr(ptr(void))"]);
    assert!(mismatches(&sigs, &calls).is_empty());
}
