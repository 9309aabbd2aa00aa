# Part of module MaxDyn (included by MaxDyn.jl): many sims of one model stepped on a pool
# of threads (maxdyn_batch_*), each trajectory bit-identical to stepping it alone. The
# batch is a collection: `batch[i]` is its i-th sim (1-based), a `Sim` for every Sim call.

export Batch, thread_count, statuses, clear_failure!

"""
    Batch(model, n, dt; threads=0)

`n` sims of `model` with time step `dt` stepped on `threads` threads (0: the machine's
count; 1: the calling thread only, which a Julia `control` needs).
"""
mutable struct Batch
    ptr::Ptr{Cvoid}
    sims::Vector{Sim}
    n_bodies::Int
    control::Any        # the control of the running `step!`, or nothing
    control_error::Any  # the first exception it threw, or nothing
    function Batch(m::Model, n::Integer, dt::Real; threads::Integer=0)
        (n >= 0 && threads >= 0) || throw(ArgumentError("Batch needs n >= 0 and threads >= 0, got $n, $threads"))
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(maxdyn_batch_new(m, Csize_t(n), Float64(dt), Csize_t(threads), out))
        b = finalizer(close, new(out[], Sim[], body_count(m), nothing, nothing))
        n_sims = Ref{Csize_t}(0)
        check(maxdyn_batch_get_size(b, n_sims))
        dofs = [joint_dof(m, j) for j in 0:joint_count(m)-1]
        for i in 0:Int(n_sims[])-1
            s = Ref{Ptr{Cvoid}}(C_NULL)
            check(maxdyn_batch_get_sim(b, Csize_t(i), s))
            push!(b.sims, Sim(s[], b.n_bodies, dofs, b))   # owned by the batch
        end
        return b
    end
end

Base.unsafe_convert(::Type{Ptr{Cvoid}}, b::Batch) = handle(b)

"""Frees the batch and its sims (their `Sim`s refuse calls afterwards)."""
function Base.close(b::Batch)
    foreach(close, b.sims)
    b.ptr == C_NULL || maxdyn_batch_free(b.ptr)
    b.ptr = C_NULL
    return nothing
end

Base.length(b::Batch) = length(b.sims)
Base.getindex(b::Batch, i::Integer) = b.sims[i]
Base.iterate(b::Batch, state...) = iterate(b.sims, state...)

"""Threads of the batch's pool (1: the calling thread only)."""
function thread_count(b::Batch)
    out = Ref{Csize_t}(0)
    check(maxdyn_batch_get_thread_count(b, out))
    return Int(out[])
end

# C calls this before each step of sim `index` (0-based) with the Julia Batch as user data
function batch_control_trampoline(::Ptr{Cvoid}, index::Csize_t, user::Ptr{Cvoid})::Cint
    b = unsafe_pointer_to_objref(user)::Batch
    try
        b.control(Int(index) + 1, b.sims[Int(index)+1])
        return Cint(0)
    catch e
        b.control_error === nothing && (b.control_error = e)
        return Cint(1)
    end
end

"""Takes `n` steps of every running sim; returns each sim's status (0: running). A sim
whose step fails stops at its last good step with that status until `clear_failure!`;
the others go on. `control(i, sim)`, if given, sets sim i's inputs before each of its
steps; Julia code runs on Julia's threads only, so it needs a batch of `threads=1`. If it
throws, that sim stops (status 201, CALLBACK_ABORTED) and the first exception is thrown
after the step."""
function step!(b::Batch, n::Integer=1; control=nothing)
    n >= 0 || throw(ArgumentError("step! needs n >= 0, got $n"))
    f = C_NULL
    if control !== nothing
        thread_count(b) == 1 || throw(ArgumentError(
            "a Julia control runs on the calling thread only: make the batch with threads=1"))
        f = @cfunction(batch_control_trampoline, Cint, (Ptr{Cvoid}, Csize_t, Ptr{Cvoid}))
    end
    st = fill(Int32(-1), max(length(b), 1))
    b.control, b.control_error = control, nothing
    rc = try
        maxdyn_batch_step(b, Csize_t(n), f, control === nothing ? C_NULL : pointer_from_objref(b),
                          st, Csize_t(length(b)))
    finally
        b.control = nothing
    end
    e = b.control_error
    b.control_error = nothing
    e === nothing || throw(e)
    written = all(!=(-1), st[1:length(b)])
    (rc != 0 && !written) && check(rc)   # refused whole: nothing stepped
    return Int.(st[1:length(b)])
end

"""Each sim's status: 0, or the failure that stopped it."""
function statuses(b::Batch)
    return map(0:length(b)-1) do i
        out = Ref{Int32}(0)
        check(maxdyn_batch_get_status(b, Csize_t(i), out))
        Int(out[])
    end
end

"""Lets stopped sim `i` (1-based) step again, e.g. after setting a new state."""
function clear_failure!(b::Batch, i::Integer)
    1 <= i <= length(b) || throw(BoundsError(b.sims, i))
    check(maxdyn_batch_clear_failure(b, Csize_t(i - 1)))
end

"""Every sim's body states: a 13 × bodies × sims array (`[:, j+1, i]` is body j of sim i)."""
function body_states(b::Batch)
    out = zeros(BODY_STATE_SIZE, b.n_bodies, length(b))   # C's [sims][bodies][13], row-major
    check(maxdyn_batch_get_body_states(b, out, Csize_t(length(out))))
    return out
end
