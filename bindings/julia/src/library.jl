# Part of module MaxDyn (included first by MaxDyn.jl): finding libmaxdyn when the module
# is loaded, and `@cfunc`, which declares each C function once (c_api.jl).
#
# The library is located in `__init__`, not at precompile time, so a precompiled MaxDyn
# follows MAXDYN_LIBRARY, a new install or a rebuilt checkout. Each C function is a
# `Ref{Ptr{Cvoid}}` filled by `Libdl.dlsym` there and called through `ccall` with that pointer.

"""The C functions `@cfunc` declared (c_api.jl), in declaration order."""
const C_FUNCTIONS = Symbol[]

"""The path of the loaded libmaxdyn and its `Libdl` handle (set by `__init__`)."""
const LIBRARY = Ref{String}("")
const LIBRARY_HANDLE = Ref{Ptr{Cvoid}}(C_NULL)

"""The path of the libmaxdyn this module loaded."""
library_path() = LIBRARY[]

"""
    @cfunc name(arg::Type, ...)::Return

Declares the C function `name` of include/maxdyn.h: a `Ref{Ptr{Cvoid}}` `ptr_<name>`
that `__init__` fills from the library, and a Julia function `name(args...)` that calls
it with `ccall` and these types. tests/julia_signatures.rs checks every declaration
against the header. The argument names document; the function's own are generated.
"""
macro cfunc(decl)
    ok = decl isa Expr && decl.head === :(::) && decl.args[1] isa Expr && decl.args[1].head === :call
    ok || error("@cfunc needs name(arg::Type, ...)::Return, got $decl")
    call, ret = decl.args
    name = call.args[1]
    name isa Symbol || error("@cfunc: $name is not a function name")
    args = call.args[2:end]
    for a in args
        (a isa Expr && a.head === :(::) && length(a.args) == 2) || error("@cfunc $name: `$a` needs name::Type")
    end
    vars = [gensym(string(a.args[1])) for a in args]
    types = [a.args[2] for a in args]
    pointer = Symbol("ptr_", name)
    return esc(quote
        const $pointer = Ref{Ptr{Cvoid}}(C_NULL)
        push!(C_FUNCTIONS, $(QuoteNode(name)))
        function $name($(vars...))
            f = $pointer[]
            f == C_NULL && missing_function($(QuoteNode(name)))
            return ccall(f, $ret, ($(types...),), $(vars...))
        end
    end)
end

@noinline missing_function(name::Symbol) =
    error(LIBRARY_HANDLE[] == C_NULL ? "MaxDyn: libmaxdyn is not loaded (MaxDyn.__init__ did not run)" :
          "MaxDyn: $(LIBRARY[]) has no function $name: an older libmaxdyn than this binding")

const LIBRARY_FILE = Sys.isapple() ? "libmaxdyn.dylib" : Sys.iswindows() ? "maxdyn.dll" : "libmaxdyn.so"

"""The library directory pkg-config gives for maxdyn (`scripts/install.sh` installs
maxdyn.pc), or `nothing`."""
function pkg_config_libdir()
    exe = Sys.which("pkg-config")
    exe === nothing && return nothing
    dir = try
        readchomp(pipeline(`$exe --variable=libdir maxdyn`; stderr=devnull))
    catch
        return nothing
    end
    return isempty(dir) ? nothing : dir
end

"""
    library_candidates() -> Vector{Tuple{String,String}}

(where, path) of every place searched for libmaxdyn, in order: the environment variable
`MAXDYN_LIBRARY` (or its older name `MAXDYN_LIB`); the installed library, from
pkg-config's libdir for maxdyn, else the system library path (`scripts/install.sh`);
the checkout this binding sits in: `\$CARGO_TARGET_DIR` or `target/`, release then debug.
"""
function library_candidates()
    found = Tuple{String,String}[]
    for var in ("MAXDYN_LIBRARY", "MAXDYN_LIB")
        path = get(ENV, var, "")
        isempty(path) || return [("\$$var", path)]   # named: that file or an error
    end
    libdir = pkg_config_libdir()
    libdir === nothing || push!(found, ("pkg-config maxdyn libdir", joinpath(libdir, LIBRARY_FILE)))
    system = Libdl.find_library(["libmaxdyn"])
    push!(found, ("the system library path", isempty(system) ? "libmaxdyn" : system))
    checkout = normpath(joinpath(@__DIR__, "..", "..", ".."))
    targets = unique(filter(!isempty, [get(ENV, "CARGO_TARGET_DIR", ""), joinpath(checkout, "target")]))
    for target in targets, profile in ("release", "debug")
        push!(found, ("the checkout", joinpath(target, profile, LIBRARY_FILE)))
    end
    return found
end

function load_library()
    tried = String[]
    for (where, path) in library_candidates()
        lib = Libdl.dlopen(path, Libdl.RTLD_LAZY | Libdl.RTLD_LOCAL; throw_error=false)
        if lib === nothing
            push!(tried, "  $where: $path")
            continue
        end
        return Libdl.dlpath(lib), lib
    end
    error("MaxDyn: libmaxdyn not found. Searched:\n", join(tried, "\n"),
          "\nSet MAXDYN_LIBRARY to the library's path, install it (scripts/install.sh, with its",
          " pkg-config directory on PKG_CONFIG_PATH) or build the checkout (cargo build --release).")
end

function __init__()
    path, lib = load_library()
    LIBRARY[], LIBRARY_HANDLE[] = path, lib
    absent = Symbol[]
    for name in C_FUNCTIONS
        f = Libdl.dlsym(lib, name; throw_error=false)
        getfield(@__MODULE__, Symbol("ptr_", name))[] = f === nothing ? C_NULL : f
        f === nothing && push!(absent, name)
    end
    # an older library still loads; a call to what it lacks throws (missing_function)
    isempty(absent) || @warn "MaxDyn: $path lacks $(length(absent)) functions of this binding" absent
    return nothing
end
