# Part of module MaxDyn (included by MaxDyn.jl): names, joint limits, mimics and frames
# on the builder; the model's names and structure, kept after the builder is freed.
# Names need not be unique: find_* give the lowest id of a name.

# --- builder

set_body_name!(b::Builder, body::Integer, name::AbstractString) =
    check(@ccall libmaxdyn.maxdyn_builder_set_body_name(b::Ptr{Cvoid}, Int32(body)::Int32, name::Cstring)::Int32)

set_joint_name!(b::Builder, joint::Integer, name::AbstractString) =
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_name(b::Ptr{Cvoid}, Int32(joint)::Int32, name::Cstring)::Int32)

"""Bounds of each free direction of `joint` (translations first); `-Inf` / `Inf` leave a
side free. Replaces the joint's earlier limits."""
function set_joint_limits!(b::Builder, joint::Integer, lower, upper)
    lo = Float64[Float64(a) for a in lower]
    hi = doubles(upper, length(lo), "upper")
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_limits(b::Ptr{Cvoid}, Int32(joint)::Int32,
        lo::Ptr{Cdouble}, hi::Ptr{Cdouble}, Csize_t(length(lo))::Csize_t)::Int32)
end

"""q_follower = multiplier * q_leader + offset (one-coordinate joints); returns the mimic's id."""
function add_mimic!(b::Builder, follower::Integer, leader::Integer, multiplier::Real=1.0, offset::Real=0.0)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_mimic(b::Ptr{Cvoid}, Int32(follower)::Int32, Int32(leader)::Int32,
        Float64(multiplier)::Cdouble, Float64(offset)::Cdouble, out::Ptr{Int32})::Int32)
    return out[]
end

"""A frame named `name` fixed to `body` (or `WORLD`) at `pose` = position (3, body frame)
and quaternion (w, x, y, z); returns its id."""
function add_frame!(b::Builder, name::AbstractString, body::Integer, pose=(0, 0, 0, 1, 0, 0, 0))
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_frame(b::Ptr{Cvoid}, name::Cstring, Int32(body)::Int32,
        doubles(pose, 7, "pose")::Ptr{Cdouble}, out::Ptr{Int32})::Int32)
    return out[]
end

# --- model: names

"""The whole name: `get(buffer, size, length_ref)` asked for the length, then filled."""
function read_name(get)
    len = Ref{Csize_t}(0)
    check(get(Ptr{UInt8}(C_NULL), Csize_t(0), len))
    buf = Vector{UInt8}(undef, len[] + 1)
    GC.@preserve buf check(get(pointer(buf), Csize_t(length(buf)), len))
    return String(buf[1:len[]])
end

body_name(m::Model, body::Integer) = read_name() do p, n, len
    @ccall libmaxdyn.maxdyn_model_get_body_name(m::Ptr{Cvoid}, Int32(body)::Int32, p::Ptr{UInt8}, n::Csize_t, len::Ptr{Csize_t})::Int32
end
joint_name(m::Model, joint::Integer) = read_name() do p, n, len
    @ccall libmaxdyn.maxdyn_model_get_joint_name(m::Ptr{Cvoid}, Int32(joint)::Int32, p::Ptr{UInt8}, n::Csize_t, len::Ptr{Csize_t})::Int32
end
frame_name(m::Model, frame::Integer) = read_name() do p, n, len
    @ccall libmaxdyn.maxdyn_model_get_frame_name(m::Ptr{Cvoid}, Int32(frame)::Int32, p::Ptr{UInt8}, n::Csize_t, len::Ptr{Csize_t})::Int32
end

function find_body(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_find_body(m::Ptr{Cvoid}, name::Cstring, out::Ptr{Int32})::Int32)
    return out[]
end

function find_joint(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_find_joint(m::Ptr{Cvoid}, name::Cstring, out::Ptr{Int32})::Int32)
    return out[]
end

function find_frame(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_find_frame(m::Ptr{Cvoid}, name::Cstring, out::Ptr{Int32})::Int32)
    return out[]
end

# --- model: structure

"""One of `MaxDyn.FIXED` … `MaxDyn.UNIVERSAL`."""
function joint_type(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_type(m::Ptr{Cvoid}, Int32(joint)::Int32, out::Ptr{Int32})::Int32)
    return out[]
end

"""The parent body's id, `WORLD` for the world."""
function joint_parent(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_parent(m::Ptr{Cvoid}, Int32(joint)::Int32, out::Ptr{Int32})::Int32)
    return out[]
end

function joint_child(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_child(m::Ptr{Cvoid}, Int32(joint)::Int32, out::Ptr{Int32})::Int32)
    return out[]
end

function body_mass(m::Model, body::Integer)
    out = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_model_get_body_mass(m::Ptr{Cvoid}, Int32(body)::Int32, out::Ptr{Cdouble})::Int32)
    return out[]
end

"""3×3 inertia about the centre of mass, in the body frame."""
function body_inertia(m::Model, body::Integer)
    rm = zeros(9)
    check(@ccall libmaxdyn.maxdyn_model_get_body_inertia(m::Ptr{Cvoid}, Int32(body)::Int32, rm::Ptr{Cdouble})::Int32)
    return permutedims(reshape(rm, 3, 3))   # row-major from C
end

# --- model: frames, limits, mimics

function frame_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_frame_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""The body the frame is fixed to, `WORLD` for the world."""
function frame_body(m::Model, frame::Integer)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_model_get_frame_body(m::Ptr{Cvoid}, Int32(frame)::Int32, out::Ptr{Int32})::Int32)
    return out[]
end

"""Position (3, body frame) and unit quaternion (w, x, y, z) relative to its body: 7 numbers."""
function frame_pose(m::Model, frame::Integer)
    out = zeros(7)
    check(@ccall libmaxdyn.maxdyn_model_get_frame_pose(m::Ptr{Cvoid}, Int32(frame)::Int32, out::Ptr{Cdouble})::Int32)
    return out
end

"""Bounded joint coordinates."""
function limit_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_limit_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""(lower, upper), one value per free direction; `-Inf` / `Inf` where free."""
function joint_limits(m::Model, joint::Integer)
    n = joint_dof(m, joint)
    lo, hi = zeros(n), zeros(n)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_limits(m::Ptr{Cvoid}, Int32(joint)::Int32,
        lo::Ptr{Cdouble}, hi::Ptr{Cdouble}, Csize_t(n)::Csize_t)::Int32)
    return (lo, hi)
end

function mimic_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_mimic_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""(follower, leader, multiplier, offset) of mimic `id`."""
function mimic(m::Model, id::Integer)
    f, l = Ref{Int32}(-1), Ref{Int32}(-1)
    k, c = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_model_get_mimic(m::Ptr{Cvoid}, Int32(id)::Int32, f::Ptr{Int32}, l::Ptr{Int32},
        k::Ptr{Cdouble}, c::Ptr{Cdouble})::Int32)
    return (f[], l[], k[], c[])
end
