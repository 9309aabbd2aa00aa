# Part of module MaxDyn (included by MaxDyn.jl): recordings of a sim for the viewer
# (maxdyn_sim_record_open, maxdyn_recorder_add_frame, maxdyn_recorder_close;
# docs/RECORDING.md has the file format).

export Recorder, add_frame!, record!

"""Writes `sim`'s model to `path` (JSON for viewer/), then one frame per `add_frame!`:
the time, every body's pose and the last step's contact forces. `close` finishes the
file (a recorder garbage-collected unclosed is closed then).

    rec = Recorder(sim, "run.json"); record!(rec, 500; every=5); close(rec)
"""
mutable struct Recorder
    ptr::Ptr{Cvoid}
    sim::Sim
    path::String
    frame_count::Int
    function Recorder(s::Sim, path::AbstractString)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(maxdyn_sim_record_open(s, String(path), out))
        return finalizer(new(out[], s, String(path), 0)) do r
            r.ptr == C_NULL || maxdyn_recorder_close(r.ptr)   # no throwing in a finalizer
            r.ptr = C_NULL
        end
    end
end

Base.unsafe_convert(::Type{Ptr{Cvoid}}, r::Recorder) = handle(r)

"""Appends a frame of `sim` (default: the recorded sim; any sim of the same model)."""
function add_frame!(r::Recorder, s::Sim=r.sim)
    check(maxdyn_recorder_add_frame(r, s))
    r.frame_count += 1
    return r
end

"""Steps the recorded sim `steps` times, adding a frame after every `every`-th step (and
one first if the recording has none)."""
function record!(r::Recorder, steps::Integer; every::Integer=1)
    (steps >= 0 && every >= 1) || throw(ArgumentError("record! needs steps >= 0 and every >= 1, got $steps, $every"))
    r.frame_count == 0 && add_frame!(r)
    done = 0
    while done < steps
        chunk = min(every, steps - done)
        step!(r.sim, chunk)
        done += chunk
        chunk == every && add_frame!(r)
    end
    return r
end

"""Finishes the file and frees the recorder (once; later calls do nothing); throws a
`MaxDynError` if a write failed."""
function Base.close(r::Recorder)
    r.ptr == C_NULL && return nothing
    ptr, r.ptr = r.ptr, C_NULL
    check(maxdyn_recorder_close(ptr))
end
