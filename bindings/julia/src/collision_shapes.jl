# Part of module MaxDyn (included by MaxDyn.jl): collision shapes on the builder and in
# the model, and URDF loading with options (collision shapes, the ground, self-collision).
# docs/COLLISION.md has the shapes, their parameters and the filter rule.

export add_shape!, add_hull_shape!, set_shape_friction!, set_collision_filter!, exclude_shape_pair!,
    set_collision_cone!, set_jointed_bodies_collide!, shape_count, shape, shape_friction,
    collision_filter, builder_from_urdf_with, ShapeContact, shape_contact_count, shape_contacts

# shape types (maxdyn.h MAXDYN_SHAPE_*): params () plane, (radius,) sphere, (radius,
# half_length) capsule and cylinder along z, (three half extents) box
const SHAPE_PLANE = Int32(0)
const SHAPE_SPHERE = Int32(1)
const SHAPE_CAPSULE = Int32(2)
const SHAPE_BOX = Int32(3)
const SHAPE_CYLINDER = Int32(4)
# the convex hull of points (`add_hull_shape!`; a URDF `<mesh>`)
const SHAPE_HULL = Int32(5)

"""maxdyn.h `maxdyn_urdf_options` (fields only ever added at the end)."""
struct UrdfOptions
    floating::Int32
    merge_fixed::Int32
    joint_limits::Int32
    collision::Int32
    ground_plane::Int32
    self_collision::Int32
    bound_mass::Float64
    bound_inertia::Float64
    srdf_path::Ptr{UInt8}
    srdf_string::Ptr{UInt8}
end

# --- builder

"""A collision shape of `type` (`SHAPE_*`) with its `params` on `body` (or `WORLD` for a
static shape) at `pose` = position (3, body frame, origin at the centre of mass) and unit
quaternion (w, x, y, z); returns its id."""
function add_shape!(b::Builder, body::Integer, type::Integer, params=Float64[], pose=(0, 0, 0, 1, 0, 0, 0))
    p = Float64[Float64(a) for a in params]
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_shape(b::Ptr{Cvoid}, Int32(body)::Int32, Int32(type)::Int32,
        doubles(pose, 7, "pose")::Ptr{Cdouble}, p::Ptr{Cdouble},
        Csize_t(length(p))::Csize_t, out::Ptr{Int32})::Int32)
    return out[]
end

"""The convex hull of `points` (a 3×n or n×3 matrix, or a vector of x, y, z per point, in
the shape frame) on `body` (or `WORLD`) at `pose`; type `SHAPE_HULL`. Returns its id."""
function add_hull_shape!(b::Builder, body::Integer, points::AbstractArray{<:Real}, pose=(0, 0, 0, 1, 0, 0, 0))
    xyz = if points isa AbstractMatrix && size(points, 2) == 3 && size(points, 1) != 3
        Float64[Float64(points[i, k]) for k in 1:3, i in 1:size(points, 1)][:]
    else
        Float64[Float64(a) for a in points]
    end
    length(xyz) % 3 == 0 || throw(ArgumentError("points: x, y, z per point"))
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_hull_shape(b::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(pose, 7, "pose")::Ptr{Cdouble}, xyz::Ptr{Cdouble},
        Csize_t(length(xyz) ÷ 3)::Csize_t, out::Ptr{Int32})::Int32)
    return out[]
end

"""Surface friction coefficient (≥ 0, default 1); a pair uses the smaller."""
set_shape_friction!(b::Builder, shape::Integer, mu::Real) =
    check(@ccall libmaxdyn.maxdyn_builder_set_shape_friction(b::Ptr{Cvoid}, Int32(shape)::Int32, Float64(mu)::Cdouble)::Int32)

"""Two shapes collide when each one's `group` shares a bit with the other's `mask`."""
set_collision_filter!(b::Builder, shape::Integer, group::Integer, mask::Integer) =
    check(@ccall libmaxdyn.maxdyn_builder_set_collision_filter(b::Ptr{Cvoid}, Int32(shape)::Int32,
        UInt32(group)::UInt32, UInt32(mask)::UInt32)::Int32)

exclude_shape_pair!(b::Builder, a::Integer, c::Integer) =
    check(@ccall libmaxdyn.maxdyn_builder_exclude_shape_pair(b::Ptr{Cvoid}, Int32(a)::Int32, Int32(c)::Int32)::Int32)

"""The friction cone of every contact between shapes (`CONE_LINEAR` with an even number
of directions 2–16, or `CONE_NONLINEAR` with 0)."""
set_collision_cone!(b::Builder, cone::Integer, directions::Integer=4) =
    check(@ccall libmaxdyn.maxdyn_builder_set_collision_cone(b::Ptr{Cvoid}, Int32(cone)::Int32, Int32(directions)::Int32)::Int32)

"""Whether the shapes of a joint's two bodies collide (default false)."""
set_jointed_bodies_collide!(b::Builder, collide::Bool) =
    check(@ccall libmaxdyn.maxdyn_builder_set_jointed_bodies_collide(b::Ptr{Cvoid}, Int32(collide)::Int32)::Int32)

function shape_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_get_shape_count(b::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""Loads a URDF file with options; `collision` makes its `<collision>` spheres, boxes,
cylinders and capsules shapes, `ground_plane` adds the half-space below z = 0,
`self_collision` lets the robot's shapes meet each other, `srdf_path` (an SRDF file) or
`srdf` (SRDF text) excludes the pairs of its `<disable_collisions>`, `bound_mass` and
`bound_inertia` (0: off) raise links' masses and principal moments below them (MuJoCo's
`boundmass`/`boundinertia`). Returns (builder, warnings)."""
function builder_from_urdf_with(path::AbstractString; floating::Bool=false, merge_fixed::Bool=true,
                                joint_limits::Bool=true, collision::Bool=false, ground_plane::Bool=false,
                                self_collision::Bool=false, bound_mass::Real=0.0, bound_inertia::Real=0.0,
                                srdf_path::Union{Nothing,AbstractString}=nothing,
                                srdf::Union{Nothing,AbstractString}=nothing)
    # the strings stay alive (GC.@preserve) while the options point into them
    sp, st = something(srdf_path, ""), something(srdf, "")
    GC.@preserve sp st begin
    o = Ref(UrdfOptions(floating, merge_fixed, joint_limits, collision, ground_plane, self_collision,
                        Float64(bound_mass), Float64(bound_inertia),
                        srdf_path === nothing ? Ptr{UInt8}(C_NULL) : pointer(sp),
                        srdf === nothing ? Ptr{UInt8}(C_NULL) : pointer(st)))
    out, len = Ref{Ptr{Cvoid}}(C_NULL), Ref{Csize_t}(0)
    check(@ccall libmaxdyn.maxdyn_builder_from_urdf_with(path::Cstring, o::Ptr{UrdfOptions}, out::Ptr{Ptr{Cvoid}},
        C_NULL::Ptr{UInt8}, Csize_t(0)::Csize_t, len::Ptr{Csize_t})::Int32)
    b = Builder(out[])
    # the warnings: a second load into a buffer of the reported length
    buf, again = zeros(UInt8, len[] + 1), Ref{Ptr{Cvoid}}(C_NULL)
    check(@ccall libmaxdyn.maxdyn_builder_from_urdf_with(path::Cstring, o::Ptr{UrdfOptions}, again::Ptr{Ptr{Cvoid}},
        buf::Ptr{UInt8}, Csize_t(length(buf))::Csize_t, C_NULL::Ptr{Csize_t})::Int32)
    close(Builder(again[]))
    text = String(buf[1:len[]])
    return b, (isempty(text) ? String[] : split(text, '\n'))
    end
end

# --- model

function shape_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_shape_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""(type, body, pose, params) of a shape: `SHAPE_*`, its body (`WORLD` for a static
shape), position and unit quaternion (7), and its parameters."""
function shape(m::Model, id::Integer)
    type, body, n = Ref{Int32}(-1), Ref{Int32}(-1), Ref{Csize_t}(0)
    pose, params = zeros(7), zeros(3)
    check(@ccall libmaxdyn.maxdyn_model_get_shape(m::Ptr{Cvoid}, Int32(id)::Int32, type::Ptr{Int32},
        body::Ptr{Int32}, pose::Ptr{Cdouble}, params::Ptr{Cdouble}, n::Ptr{Csize_t})::Int32)
    return (type[], body[], pose, params[1:n[]])
end

function shape_friction(m::Model, id::Integer)
    out = Ref{Cdouble}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_shape_friction(m::Ptr{Cvoid}, Int32(id)::Int32, out::Ptr{Cdouble})::Int32)
    return out[]
end

"""(group, mask) of a shape."""
function collision_filter(m::Model, id::Integer)
    group, mask = Ref{UInt32}(0), Ref{UInt32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_collision_filter(m::Ptr{Cvoid}, Int32(id)::Int32,
        group::Ptr{UInt32}, mask::Ptr{UInt32})::Int32)
    return (group[], mask[])
end

# --- contacts between shapes after a step

"""maxdyn.h `maxdyn_shape_contact`: one contact point between collision shapes after the
last step. Side a is on a body (`body_b` is `WORLD` for a world shape); the normal points
from b to a; forces in N on body a, world frame."""
struct ShapeContact
    shape_a::Int32
    shape_b::Int32
    body_a::Int32
    body_b::Int32
    point::NTuple{3,Float64}
    normal::NTuple{3,Float64}
    gap::Float64
    normal_force::Float64
    friction_force::NTuple{3,Float64}
end

"""Contact points between collision shapes after the last step."""
function shape_contact_count(s::Sim)
    n = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_sim_get_shape_contact_count(s::Ptr{Cvoid}, n::Ptr{Int32})::Int32)
    return Int(n[])
end

"""The contact points between collision shapes of the last step (`ShapeContact`s)."""
function shape_contacts(s::Sim)
    n = shape_contact_count(s)
    out = Vector{ShapeContact}(undef, n)
    written = Ref{Csize_t}(0)
    check(@ccall libmaxdyn.maxdyn_sim_get_shape_contacts(s::Ptr{Cvoid}, out::Ptr{ShapeContact},
        Csize_t(n)::Csize_t, written::Ptr{Csize_t})::Int32)
    return out[1:Int(written[])]
end
