# Part of module MaxDyn (included by MaxDyn.jl): a sim's clock, all bodies' states at
# once, its exact state (saved, restored, copied) and clearing its inputs.

export time_step, step_count, set_body_states!, exact_state, set_exact_state!, clear_inputs!

"""The time step (s)."""
function time_step(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_dt(s, out))
    return out[]
end

"""Steps taken since the sim was made."""
function step_count(s::Sim)
    out = Ref{UInt64}(0)
    check(maxdyn_sim_get_step_count(s, out))
    return Int(out[])
end

"""Sets every body's state from a 13 × n matrix (column j+1 is body j, as `body_states`
returns them); all or nothing."""
function set_body_states!(s::Sim, states::AbstractMatrix{<:Real})
    size(states) == (BODY_STATE_SIZE, s.n_bodies) ||
        throw(ArgumentError("states needs $(BODY_STATE_SIZE) × $(s.n_bodies), got $(size(states))"))
    x = Float64.(states)   # column-major 13 × n is C's n rows of 13
    check(maxdyn_sim_set_body_states(s, x, Csize_t(s.n_bodies)))
end

"""The exact state, an opaque vector for `set_exact_state!` on this sim or any sim of
the same model: the steps after restoring replay bit for bit (`maxdyn_sim_get_state`)."""
function exact_state(s::Sim)
    n = Ref{Csize_t}(0)
    check(maxdyn_sim_state_size(s, n))
    out = zeros(n[])
    check(maxdyn_sim_get_state(s, out, n[]))
    return out
end

"""Restores a state that `exact_state` returned (a wrong length, a NaN or a state of
another model throws and changes nothing)."""
function set_exact_state!(s::Sim, state::AbstractVector{<:Real})
    x = Float64.(state)
    check(maxdyn_sim_set_state(s, x, Csize_t(length(x))))
end

"""An independent sim of the same model at the same exact state and options, with the
same control callback (called with the copy)."""
function Base.copy(s::Sim)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(maxdyn_sim_copy(s, out))
    twin = Sim(out[], s.n_bodies, copy(s.dofs), nothing)
    # C copied the callback and its user data, which points at `s`: point it at the twin
    set_control_callback!(twin, s.control)
    return twin
end

"""Sets every joint input and body wrench to zero."""
clear_inputs!(s::Sim) = check(maxdyn_sim_clear_inputs(s))
