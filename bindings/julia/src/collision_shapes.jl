# Part of module MaxDyn (included by MaxDyn.jl): collision shapes on the builder and in
# the model, and URDF loading with options (collision shapes, the ground, self-collision).
# docs/COLLISION.md has the shapes, their parameters and the filter rule.

export add_shape!, add_hull_shape!, add_heightfield_shape!, add_trimesh_shape!, set_shape_friction!, set_collision_filter!, exclude_shape_pair!,
    set_collision_cone!, set_jointed_bodies_collide!, shape_count, shape, shape_friction,
    collision_filter, builder_from_urdf_with, builder_from_urdf_string_with, builder_from_urdf_string,
    ShapeContact, UrdfOptions, shape_contact_count, shape_contacts, set_contact_capacity!, contact_capacity,
    shapes_may_collide, collision_cone

# shape types (maxdyn.h MAXDYN_SHAPE_*): params () plane, (radius,) sphere, (radius,
# half_length) capsule and cylinder along z, (three half extents) box
const SHAPE_PLANE = Int32(0)
const SHAPE_SPHERE = Int32(1)
const SHAPE_CAPSULE = Int32(2)
const SHAPE_BOX = Int32(3)
const SHAPE_CYLINDER = Int32(4)
# the convex hull of points (`add_hull_shape!`; a URDF `<mesh>`)
const SHAPE_HULL = Int32(5)
# static world geometry: a grid of heights (`add_heightfield_shape!`), a triangle mesh
# (`add_trimesh_shape!`)
const SHAPE_HEIGHTFIELD = Int32(6)
const SHAPE_TRIMESH = Int32(7)

# --- builder

"""A collision shape of `type` (`SHAPE_*`) with its `params` on `body` (or `WORLD` for a
static shape) at `pose` = position (3, body frame, origin at the centre of mass) and unit
quaternion (w, x, y, z); returns its id."""
function add_shape!(b::Builder, body::Integer, type::Integer, params=Float64[], pose=(0, 0, 0, 1, 0, 0, 0))
    p = Float64[Float64(a) for a in params]
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_shape(b, Int32(body), Int32(type), doubles(pose, 7, "pose"), p,
        Csize_t(length(p)), out))
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
    check(maxdyn_builder_add_hull_shape(b, Int32(body), doubles(pose, 7, "pose"), xyz,
        Csize_t(length(xyz) ÷ 3), out))
    return out[]
end

"""A height field (terrain) in the world at `pose`: `heights` a rows × cols matrix (at
least 2 × 2; row r at y = (r − 1 − (rows − 1)/2)·dy, column c at x = (c − 1 − (cols − 1)/2)·dx
in the shape frame, z up), cells `dx` × `dy` (> 0); type `SHAPE_HEIGHTFIELD`. Returns its id."""
function add_heightfield_shape!(b::Builder, heights::AbstractMatrix{<:Real}, dx::Real, dy::Real, pose=(0, 0, 0, 1, 0, 0, 0))
    rows, cols = size(heights)
    # row-major, as the C call takes them
    h = Float64[Float64(heights[r, c]) for c in 1:cols, r in 1:rows][:]
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_heightfield_shape(b, WORLD, doubles(pose, 7, "pose"), h, Csize_t(rows),
        Csize_t(cols), Float64(dx), Float64(dy), out))
    return out[]
end

"""A triangle mesh in the world at `pose`: `vertices` an n×3 matrix (shape frame),
`triangles` an m×3 matrix of 0-based vertex indices (each triangle with an area); type
`SHAPE_TRIMESH`. Returns its id."""
function add_trimesh_shape!(b::Builder, vertices::AbstractMatrix{<:Real}, triangles::AbstractMatrix{<:Integer}, pose=(0, 0, 0, 1, 0, 0, 0))
    size(vertices, 2) == 3 || throw(ArgumentError("vertices: an n×3 matrix"))
    size(triangles, 2) == 3 || throw(ArgumentError("triangles: an m×3 matrix"))
    v = Float64[Float64(vertices[i, k]) for k in 1:3, i in 1:size(vertices, 1)][:]
    t = Int32[Int32(triangles[i, k]) for k in 1:3, i in 1:size(triangles, 1)][:]
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_trimesh_shape(b, WORLD, doubles(pose, 7, "pose"), v, Csize_t(size(vertices, 1)),
        t, Csize_t(size(triangles, 1)), out))
    return out[]
end

"""Surface friction coefficient (≥ 0, default 1); a pair uses the smaller."""
set_shape_friction!(b::Builder, shape::Integer, mu::Real) =
    check(maxdyn_builder_set_shape_friction(b, Int32(shape), Float64(mu)))

"""Two shapes collide when each one's `group` shares a bit with the other's `mask`."""
set_collision_filter!(b::Builder, shape::Integer, group::Integer, mask::Integer) =
    check(maxdyn_builder_set_collision_filter(b, Int32(shape), UInt32(group), UInt32(mask)))

exclude_shape_pair!(b::Builder, a::Integer, c::Integer) =
    check(maxdyn_builder_exclude_shape_pair(b, Int32(a), Int32(c)))

"""The friction cone of every contact between shapes (`CONE_LINEAR` with an even number
of directions 2–16, or `CONE_NONLINEAR` with 0)."""
set_collision_cone!(b::Builder, cone::Integer, directions::Integer=4) =
    check(maxdyn_builder_set_collision_cone(b, Int32(cone), Int32(directions)))

"""Whether the shapes of a joint's two bodies collide (default false)."""
set_jointed_bodies_collide!(b::Builder, collide::Bool) =
    check(maxdyn_builder_set_jointed_bodies_collide(b, Int32(collide)))

function shape_count(b::Builder)
    out = Ref{Int32}(0)
    check(maxdyn_builder_get_shape_count(b, out))
    return Int(out[])
end

"""Loads a URDF file with options (maxdyn.h `maxdyn_urdf_options`); `collision` makes its
`<collision>` spheres, boxes, cylinders, capsules and meshes (their convex hulls) shapes,
`ground_plane` adds the half-space below z = 0, `self_collision` lets the robot's shapes
meet each other, `srdf_path` (an SRDF file) or `srdf` (SRDF text) excludes the pairs of
its `<disable_collisions>`, `bound_mass` and `bound_inertia` (0: off) raise links'
masses and principal moments below them (MuJoCo's `boundmass`/`boundinertia`),
`mesh_roots` are directories searched for mesh files (`package://pkg/…` as `dir/pkg/…`),
`world_meshes_as_trimesh` makes the meshes of links fixed to the world triangle meshes
(bodies touch their concave insides) instead of hulls. Returns (builder, warnings)."""
builder_from_urdf_with(path::AbstractString; options...) =
    load_urdf_with(options) do o, out, buf, n, len
        maxdyn_builder_from_urdf_with(String(path), o, out, buf, n, len)
    end

"""As `builder_from_urdf_with`, from URDF text (relative mesh paths resolve against the
working directory and `mesh_roots`). Returns (builder, warnings)."""
builder_from_urdf_string_with(xml::AbstractString; options...) =
    load_urdf_with(options) do o, out, buf, n, len
        maxdyn_builder_from_urdf_string_with(String(xml), o, out, buf, n, len)
    end

# `load(options, out, buffer, size, length)` is one of the two C loaders
function load_urdf_with(load, options)
    kw = Dict{Symbol,Any}(options)
    names = (:floating, :merge_fixed, :joint_limits, :collision, :ground_plane, :self_collision,
             :bound_mass, :bound_inertia, :srdf_path, :srdf, :mesh_roots, :world_meshes_as_trimesh)
    for k in keys(kw)
        k in names || throw(ArgumentError("no URDF option $k (options: $(join(names, ", ")))"))
    end
    flag(k) = haskey(kw, k) ? Int32(Bool(kw[k])) : nothing
    text(k) = haskey(kw, k) && kw[k] !== nothing ? String(kw[k]) : nothing
    roots = haskey(kw, :mesh_roots) && !isempty(kw[:mesh_roots]) ? join(String.(kw[:mesh_roots]), ':') : nothing
    srdf_path, srdf = text(:srdf_path), text(:srdf)
    # Julia strings end in a NUL; they stay alive (GC.@preserve) while the options point at them
    GC.@preserve srdf_path srdf roots begin
        cstr(x) = x === nothing ? Ptr{UInt8}(C_NULL) : pointer(x)
        d = maxdyn_urdf_options_default()
        o = Ref(with_fields(d; floating=something(flag(:floating), d.floating),
            merge_fixed=something(flag(:merge_fixed), d.merge_fixed),
            joint_limits=something(flag(:joint_limits), d.joint_limits),
            collision=something(flag(:collision), d.collision),
            ground_plane=something(flag(:ground_plane), d.ground_plane),
            self_collision=something(flag(:self_collision), d.self_collision),
            world_meshes_as_trimesh=something(flag(:world_meshes_as_trimesh), d.world_meshes_as_trimesh),
            bound_mass=Float64(get(kw, :bound_mass, d.bound_mass)),
            bound_inertia=Float64(get(kw, :bound_inertia, d.bound_inertia)),
            srdf_path=cstr(srdf_path), srdf_string=cstr(srdf), mesh_roots=cstr(roots)))
        out, len = Ref{Ptr{Cvoid}}(C_NULL), Ref{Csize_t}(0)
        check(load(o, out, Ptr{UInt8}(C_NULL), Csize_t(0), len))
        b = Builder(out[])
        len[] == 0 && return b, String[]
        # the warnings: a second load into a buffer of the reported length
        buf, again = zeros(UInt8, len[] + 1), Ref{Ptr{Cvoid}}(C_NULL)
        check(load(o, again, buf, Csize_t(length(buf)), Ptr{Csize_t}(C_NULL)))
        close(Builder(again[]))
        return b, split(String(buf[1:len[]]), '\n')
    end
end

"""Loads URDF text into a new builder (as `builder_from_urdf`)."""
function builder_from_urdf_string(xml::AbstractString; floating::Bool=false)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(maxdyn_builder_from_urdf_string(String(xml), Int32(floating), out))
    return Builder(out[])
end

"""Most contact points between collision shapes a step may hold (default 24 per shape on
a body, at least 64); a step needing more is refused (status CONTACT_CAPACITY)."""
set_contact_capacity!(b::Builder, slots::Integer) = check(maxdyn_builder_set_contact_capacity(b, Int32(slots)))

# --- model

function shape_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_shape_count(m, out))
    return Int(out[])
end

"""(type, body, pose, params) of a shape: `SHAPE_*`, its body (`WORLD` for a static
shape), position and unit quaternion (7), and its parameters."""
function shape(m::Model, id::Integer)
    type, body, n = Ref{Int32}(-1), Ref{Int32}(-1), Ref{Csize_t}(0)
    pose, params = zeros(7), zeros(3)
    check(maxdyn_model_get_shape(m, Int32(id), type, body, pose, params, n))
    return (type[], body[], pose, params[1:n[]])
end

function shape_friction(m::Model, id::Integer)
    out = Ref{Cdouble}(0)
    check(maxdyn_model_get_shape_friction(m, Int32(id), out))
    return out[]
end

"""(group, mask) of a shape."""
function collision_filter(m::Model, id::Integer)
    group, mask = Ref{UInt32}(0), Ref{UInt32}(0)
    check(maxdyn_model_get_collision_filter(m, Int32(id), group, mask))
    return (group[], mask[])
end

# --- contacts between shapes after a step

"""Contact points between collision shapes after the last step."""
function shape_contact_count(s::Sim)
    n = Ref{Int32}(0)
    check(maxdyn_sim_get_shape_contact_count(s, n))
    return Int(n[])
end

"""The contact points between collision shapes of the last step (`ShapeContact`s)."""
function shape_contacts(s::Sim)
    n = shape_contact_count(s)
    out = Vector{ShapeContact}(undef, n)
    written = Ref{Csize_t}(0)
    check(maxdyn_sim_get_shape_contacts(s, out, Csize_t(n), written))
    return out[1:Int(written[])]
end

# --- model: contact capacity and pairs

"""Most contact slots between collision shapes a step may hold (0 without shapes)."""
function contact_capacity(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_contact_capacity(m, out))
    return Int(out[])
end

"""Whether two collision shapes may touch: filters, bodies, joints and excluded pairs (an
SRDF's among them)."""
function shapes_may_collide(m::Model, a::Integer, c::Integer)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_shapes_may_collide(m, Int32(a), Int32(c), out))
    return out[] == 1
end

"""(cone type, directions) of the contacts between collision shapes."""
function collision_cone(m::Model)
    t, d = Ref{Int32}(0), Ref{Int32}(0)
    check(maxdyn_model_get_collision_cone(m, t, d))
    return (t[], Int(d[]))
end
