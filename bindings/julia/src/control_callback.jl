# Part of module MaxDyn (included by MaxDyn.jl): a Julia function that sets a sim's inputs
# before each of its steps (maxdyn_sim_set_control_callback). An exception must not
# unwind through C: the trampoline keeps it, returns non-zero (the step is aborted and
# changes nothing), and `step!` throws it.

export set_control_callback!

# C calls this with the sim and the user data: the Julia Sim, alive as long as its C sim
function sim_control_trampoline(::Ptr{Cvoid}, user::Ptr{Cvoid})::Cint
    s = unsafe_pointer_to_objref(user)::Sim
    try
        s.control(s)
        return Cint(0)
    catch e
        s.control_error = e
        return Cint(1)
    end
end

"""`control(sim)` is called before each step to set its inputs; `nothing` removes it. If
it throws, the step is aborted (state unchanged) and `step!` throws that exception."""
function set_control_callback!(s::Sim, control)
    if control === nothing
        check(maxdyn_sim_set_control_callback(s, C_NULL, C_NULL))
    else
        f = @cfunction(sim_control_trampoline, Cint, (Ptr{Cvoid}, Ptr{Cvoid}))
        # the user data is `s` itself: alive as long as its C sim, which it owns
        check(maxdyn_sim_set_control_callback(s, f, pointer_from_objref(s)))
    end
    s.control = control
    s.control_error = nothing
    return nothing
end

function rethrow_control_error(s::Sim)
    e = s.control_error
    e === nothing && return nothing
    s.control_error = nothing
    throw(e)
end
