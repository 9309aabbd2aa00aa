# Part of module MaxDyn (included by MaxDyn.jl): names, joint limits, mimics and frames
# on the builder; the model's names and structure, kept after the builder is freed.
# Names need not be unique: find_* give the lowest id of a name.

# --- builder

set_body_name!(b::Builder, body::Integer, name::AbstractString) =
    check(maxdyn_builder_set_body_name(b, Int32(body), name))

set_joint_name!(b::Builder, joint::Integer, name::AbstractString) =
    check(maxdyn_builder_set_joint_name(b, Int32(joint), name))

"""Bounds of each free direction of `joint` (translations first); `-Inf` / `Inf` leave a
side free. Replaces the joint's earlier limits."""
function set_joint_limits!(b::Builder, joint::Integer, lower, upper)
    lo = Float64[Float64(a) for a in lower]
    hi = doubles(upper, length(lo), "upper")
    check(maxdyn_builder_set_joint_limits(b, Int32(joint), lo, hi, Csize_t(length(lo))))
end

"""q_follower = multiplier * q_leader + offset (one-coordinate joints); returns the mimic's id."""
function add_mimic!(b::Builder, follower::Integer, leader::Integer, multiplier::Real=1.0, offset::Real=0.0)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_mimic(b, Int32(follower), Int32(leader), Float64(multiplier), Float64(offset), out))
    return out[]
end

"""A frame named `name` fixed to `body` (or `WORLD`) at `pose` = position (3, body frame)
and quaternion (w, x, y, z); returns its id."""
function add_frame!(b::Builder, name::AbstractString, body::Integer, pose=(0, 0, 0, 1, 0, 0, 0))
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_frame(b, name, Int32(body), doubles(pose, 7, "pose"), out))
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
    maxdyn_model_get_body_name(m, Int32(body), p, n, len)
end
joint_name(m::Model, joint::Integer) = read_name() do p, n, len
    maxdyn_model_get_joint_name(m, Int32(joint), p, n, len)
end
frame_name(m::Model, frame::Integer) = read_name() do p, n, len
    maxdyn_model_get_frame_name(m, Int32(frame), p, n, len)
end

function find_body(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(maxdyn_model_find_body(m, name, out))
    return out[]
end

function find_joint(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(maxdyn_model_find_joint(m, name, out))
    return out[]
end

function find_frame(m::Model, name::AbstractString)
    out = Ref{Int32}(-1)
    check(maxdyn_model_find_frame(m, name, out))
    return out[]
end

# --- model: structure

"""One of `MaxDyn.FIXED` … `MaxDyn.UNIVERSAL`."""
function joint_type(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(maxdyn_model_get_joint_type(m, Int32(joint), out))
    return out[]
end

"""The parent body's id, `WORLD` for the world."""
function joint_parent(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(maxdyn_model_get_joint_parent(m, Int32(joint), out))
    return out[]
end

function joint_child(m::Model, joint::Integer)
    out = Ref{Int32}(-1)
    check(maxdyn_model_get_joint_child(m, Int32(joint), out))
    return out[]
end

function body_mass(m::Model, body::Integer)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_model_get_body_mass(m, Int32(body), out))
    return out[]
end

"""3×3 inertia about the centre of mass, in the body frame."""
function body_inertia(m::Model, body::Integer)
    rm = zeros(9)
    check(maxdyn_model_get_body_inertia(m, Int32(body), rm))
    return permutedims(reshape(rm, 3, 3))   # row-major from C
end

# --- model: frames, limits, mimics

function frame_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_frame_count(m, out))
    return Int(out[])
end

"""The body the frame is fixed to, `WORLD` for the world."""
function frame_body(m::Model, frame::Integer)
    out = Ref{Int32}(-1)
    check(maxdyn_model_get_frame_body(m, Int32(frame), out))
    return out[]
end

"""Position (3, body frame) and unit quaternion (w, x, y, z) relative to its body: 7 numbers."""
function frame_pose(m::Model, frame::Integer)
    out = zeros(7)
    check(maxdyn_model_get_frame_pose(m, Int32(frame), out))
    return out
end

"""Bounded joint coordinates."""
function limit_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_limit_count(m, out))
    return Int(out[])
end

"""(lower, upper), one value per free direction; `-Inf` / `Inf` where free."""
function joint_limits(m::Model, joint::Integer)
    n = joint_dof(m, joint)
    lo, hi = zeros(n), zeros(n)
    check(maxdyn_model_get_joint_limits(m, Int32(joint), lo, hi, Csize_t(n)))
    return (lo, hi)
end

function mimic_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_mimic_count(m, out))
    return Int(out[])
end

"""(follower, leader, multiplier, offset) of mimic `id`."""
function mimic(m::Model, id::Integer)
    f, l = Ref{Int32}(-1), Ref{Int32}(-1)
    k, c = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    check(maxdyn_model_get_mimic(m, Int32(id), f, l, k, c))
    return (f[], l[], k[], c[])
end

# --- model: every name at once, degrees of freedom

export body_names, joint_names, frame_names, dof

"""Every body's name, by id (index k+1 is body k)."""
body_names(m::Model) = [body_name(m, k) for k in 0:body_count(m)-1]
"""Every joint's name, by id."""
joint_names(m::Model) = [joint_name(m, k) for k in 0:joint_count(m)-1]
"""Every frame's name, by id."""
frame_names(m::Model) = [frame_name(m, k) for k in 0:frame_count(m)-1]
"""Every joint's free directions together (nu; nv adds 6 per floating base)."""
dof(m::Model) = sum((joint_dof(m, j) for j in 0:joint_count(m)-1); init=0)
