# Part of module MaxDyn (included by MaxDyn.jl): a sim's solver options, all at once
# (`SolverOptions`, maxdyn_sim_set_options) or the contact shorthands.

export SolverOptions, options, set_options!, contact_tolerance, set_contact_tolerance!,
    contact_margin, set_contact_margin!

"""The library's default options with the named fields changed, e.g.
`SolverOptions(tolerance=1e-12, max_iterations=50)`."""
SolverOptions(; fields...) = with_fields(maxdyn_solver_options_default(); fields...)

"""A copy of the struct `o` with the named fields changed (an unknown name throws)."""
function with_fields(o::T; fields...) where {T}
    for k in keys(fields)
        k in fieldnames(T) || throw(ArgumentError("$T has no field $k"))
    end
    return T((get(fields, f, getfield(o, f)) for f in fieldnames(T))...)
end

"""Every solver option of the sim (a `SolverOptions`)."""
function options(s::Sim)
    out = Ref{SolverOptions}()
    check(maxdyn_sim_get_options(s, out))
    return out[]
end

"""Sets every solver option from `o`; all fields are checked before any changes (the
error names the field). With keywords: the sim's options with those fields changed."""
set_options!(s::Sim, o::SolverOptions) = check(maxdyn_sim_set_options(s, Ref(o)))
set_options!(s::Sim; fields...) = set_options!(s, with_fields(options(s); fields...))

"""The contacts' interior-point tolerance (a shorthand of `options`)."""
function contact_tolerance(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_contact_tolerance(s, out))
    return out[]
end
set_contact_tolerance!(s::Sim, value::Real) = check(maxdyn_sim_set_contact_tolerance(s, Float64(value)))

"""Contacts farther than this (m, plus one step's travel) are left out of a step's solve;
`Inf` keeps every contact in every solve."""
function contact_margin(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_contact_margin(s, out))
    return out[]
end
set_contact_margin!(s::Sim, value::Real) = check(maxdyn_sim_set_contact_margin(s, Float64(value)))
