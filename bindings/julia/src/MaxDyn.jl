"""
    MaxDyn

Julia binding of the maxdyn C API (`include/maxdyn.h`) through `@ccall`.

The shared library is `ENV["MAXDYN_LIBRARY"]` (or `ENV["MAXDYN_LIB"]`) when set at
precompile time (a full path to libmaxdyn.so / .dylib / maxdyn.dll), else `libmaxdyn`
on the system library path (`scripts/install.sh`). Ids of bodies and joints are the C
API's: they count from 0, and the world is `MaxDyn.WORLD` (-1). Objects free their C
handle in a finalizer or on `close`; they are passed to `@ccall` as themselves
(`Base.unsafe_convert` gives the pointer), so each call roots them and a finalizer
cannot free a handle while C uses it. Every failing call throws a `MaxDynError`
carrying the status code and the library's last error message.

```julia
using Pkg; Pkg.develop(path="bindings/julia"); using MaxDyn
b = Builder()
body = add_body!(b, 1.0, [1/600 0 0; 0 1/600 0; 0 0 1/600])
j = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, body, [0, 0, 0], [0, 0, 1], [1, 0, 0])
sim = Sim(Model(b), 0.01)
set_joint_position!(sim, j, [pi / 2]); step!(sim, 100)
kinetic, potential = energy(sim); constraint_violation(sim)
```
"""
module MaxDyn

export MaxDynError, check, Builder, Model, Sim, builder_from_urdf, set_gravity!, add_body!,
    set_body_pose!, set_body_velocity!, add_joint!, set_joint_offset!, body_count,
    joint_count, joint_dof, step!, sim_time, body_state, body_states, set_body_state!,
    set_body_force!, joint_position, joint_velocity, set_joint_position!,
    set_joint_velocity!, energy, constraint_violation, joint_violation, assemble!, JOINT_TOLERANCE, add_ground_contact!, add_plane_contact!,
    add_sphere_contact!, set_contact_cone!, contact_count, contact, set_joint_spring!,
    set_joint_damper!, add_spring!, set_joint_input!, joint_input, set_body_wrench!,
    energy_account, reset_energy_account!, find_body, find_joint, loop_count,
    set_body_name!, set_joint_name!, set_joint_limits!, add_mimic!, add_frame!, body_name,
    joint_name, frame_name, find_frame, joint_type, joint_parent, joint_child, body_mass,
    body_inertia, frame_count, frame_body, frame_pose, limit_count, joint_limits,
    mimic_count, mimic, state_dimensions, linearize, linearize_differences,
    set_base_frame!, dimensions, configuration, set_configuration!, generalized_velocity,
    set_generalized_velocity!, joint_inputs, set_joint_inputs!

const libmaxdyn = get(ENV, "MAXDYN_LIBRARY", get(ENV, "MAXDYN_LIB", "libmaxdyn"))

const WORLD = Int32(-1)
const BODY_STATE_SIZE = 13
# joint types (maxdyn.h MAXDYN_JOINT_*)
const FIXED = Int32(0)
const PRISMATIC = Int32(1)
const PLANAR = Int32(2)
const FIXED_ORIENTATION = Int32(3)
const REVOLUTE = Int32(4)
const CYLINDRICAL = Int32(5)
const PLANAR_AXIS = Int32(6)
const FREE_REVOLUTE = Int32(7)
const SPHERICAL = Int32(8)
const CYLINDRICAL_FREE = Int32(9)
const PLANAR_FREE = Int32(10)
const FLOATING = Int32(11)
const UNIVERSAL = Int32(12)
# friction cones (maxdyn.h MAXDYN_CONE_*)
const CONE_LINEAR = Int32(0)
const CONE_NONLINEAR = Int32(1)
const CONTACT_SIZE = 5

"""A failed maxdyn call: the `status` code and the library's `message`."""
struct MaxDynError <: Exception
    status::Int32
    message::String
end

status_string(status::Integer) = unsafe_string(@ccall libmaxdyn.maxdyn_status_string(Int32(status)::Int32)::Cstring)

Base.showerror(io::IO, e::MaxDynError) =
    print(io, "maxdyn status ", e.status, " (", status_string(e.status), "): ", e.message)

"""
    check(status)

Throws a `MaxDynError` with `maxdyn_last_error_message()` unless `status` is 0.
"""
function check(status::Integer)
    status == 0 && return nothing
    message = unsafe_string(@ccall libmaxdyn.maxdyn_last_error_message()::Cstring)
    throw(MaxDynError(Int32(status), message))
end

version() = unsafe_string(@ccall libmaxdyn.maxdyn_version()::Cstring)

"""Builders, models and sims created and not yet freed (for leak checks)."""
live_objects() = Int(@ccall libmaxdyn.maxdyn_debug_live_objects()::Csize_t)

# --- argument conversion: exact lengths are checked here, values by the library
function doubles(x, n::Integer, name::AbstractString)
    v = Float64[Float64(a) for a in x]
    length(v) == n || throw(ArgumentError("$name needs $n numbers, got $(length(v))"))
    return v
end

"""Row-major 9 doubles from a 3×3 matrix (Julia is column-major) or 9 row-major numbers."""
function rowmajor3x3(J)
    J isa AbstractMatrix && return doubles(permutedims(J), 9, "inertia")
    return doubles(J, 9, "inertia")
end

# --- objects

mutable struct Builder
    ptr::Ptr{Cvoid}
    function Builder()
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(@ccall libmaxdyn.maxdyn_builder_new(out::Ptr{Ptr{Cvoid}})::Int32)
        return finalizer(close, new(out[]))
    end
    Builder(ptr::Ptr{Cvoid}) = finalizer(close, new(ptr))
end

mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(b::Builder)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(@ccall libmaxdyn.maxdyn_model_new(b::Ptr{Cvoid}, out::Ptr{Ptr{Cvoid}})::Int32)
        return finalizer(close, new(out[]))
    end
end

mutable struct Sim
    ptr::Ptr{Cvoid}
    n_bodies::Int
    dofs::Vector{Int}   # per joint, from the model at creation (the model may be freed)
    function Sim(m::Model, dt::Real)
        nb = body_count(m)
        dofs = [joint_dof(m, j) for j in 0:joint_count(m)-1]
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(@ccall libmaxdyn.maxdyn_sim_new(m::Ptr{Cvoid}, Float64(dt)::Cdouble, out::Ptr{Ptr{Cvoid}})::Int32)
        return finalizer(close, new(out[], nb, dofs))
    end
end

function handle(obj)
    obj.ptr == C_NULL && throw(ArgumentError("$(typeof(obj)) is closed"))
    return obj.ptr
end

# `@ccall f(obj::Ptr{Cvoid})` converts through here and keeps `obj` rooted during the
# call (the GC.@preserve that ccall does for its arguments), so its finalizer cannot run
# while C holds the pointer.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, obj::Union{Builder,Model,Sim}) = handle(obj)

# finalizers and explicit close: free once, NULL afterwards
function Base.close(b::Builder)
    b.ptr == C_NULL || @ccall libmaxdyn.maxdyn_builder_free(b.ptr::Ptr{Cvoid})::Cvoid
    b.ptr = C_NULL
    return nothing
end
function Base.close(m::Model)
    m.ptr == C_NULL || @ccall libmaxdyn.maxdyn_model_free(m.ptr::Ptr{Cvoid})::Cvoid
    m.ptr = C_NULL
    return nothing
end
function Base.close(s::Sim)
    s.ptr == C_NULL || @ccall libmaxdyn.maxdyn_sim_free(s.ptr::Ptr{Cvoid})::Cvoid
    s.ptr = C_NULL
    return nothing
end

# --- builder

"""Loads a URDF file into a new builder (bodies and joints in file order; see maxdyn.h)."""
function builder_from_urdf(path::AbstractString; floating::Bool=false)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(@ccall libmaxdyn.maxdyn_builder_from_urdf(path::Cstring, Int32(floating)::Int32, out::Ptr{Ptr{Cvoid}})::Int32)
    return Builder(out[])
end

set_gravity!(b::Builder, g) =
    check(@ccall libmaxdyn.maxdyn_builder_set_gravity(b::Ptr{Cvoid}, doubles(g, 3, "g")::Ptr{Cdouble})::Int32)

"""Adds a body (mass, 3×3 inertia about the centre of mass in the body frame); returns its id."""
function add_body!(b::Builder, mass::Real, inertia)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_body(b::Ptr{Cvoid}, Float64(mass)::Cdouble,
        rowmajor3x3(inertia)::Ptr{Cdouble}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

set_body_pose!(b::Builder, body::Integer, x, q) =
    check(@ccall libmaxdyn.maxdyn_builder_set_body_pose(b::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(x, 3, "x")::Ptr{Cdouble}, doubles(q, 4, "q")::Ptr{Cdouble})::Int32)

set_body_velocity!(b::Builder, body::Integer, v, omega) =
    check(@ccall libmaxdyn.maxdyn_builder_set_body_velocity(b::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(v, 3, "v")::Ptr{Cdouble}, doubles(omega, 3, "omega")::Ptr{Cdouble})::Int32)

"""Adds a joint (type, parent id or `WORLD`, child id, joint points, axis in the parent frame); returns its id."""
function add_joint!(b::Builder, type::Integer, parent::Integer, child::Integer, p_parent, p_child, axis=(1.0, 0.0, 0.0))
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_joint(b::Ptr{Cvoid}, Int32(type)::Int32,
        Int32(parent)::Int32, Int32(child)::Int32, doubles(p_parent, 3, "p_parent")::Ptr{Cdouble},
        doubles(p_child, 3, "p_child")::Ptr{Cdouble}, doubles(axis, 3, "axis")::Ptr{Cdouble}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

set_joint_offset!(b::Builder, joint::Integer, q) =
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_offset(b::Ptr{Cvoid}, Int32(joint)::Int32,
        doubles(q, 4, "q")::Ptr{Cdouble})::Int32)

function body_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_get_body_count(b::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_get_joint_count(b::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

# --- model

function body_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_body_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_dof(m::Model, joint::Integer)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_joint_dof(m::Ptr{Cvoid}, Int32(joint)::Int32, out::Ptr{Int32})::Int32)
    return Int(out[])
end

# --- sim

function step!(s::Sim, n::Integer=1)
    for _ in 1:n
        check(@ccall libmaxdyn.maxdyn_sim_step(s::Ptr{Cvoid})::Int32)
    end
    return s
end

function sim_time(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_time(s::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32)
    return out[]
end

"""13 doubles: x(3), q(4: w,x,y,z), v(3, world frame), ω(3, body frame)."""
function body_state(s::Sim, body::Integer)
    out = zeros(BODY_STATE_SIZE)
    check(@ccall libmaxdyn.maxdyn_sim_get_body_state(s::Ptr{Cvoid}, Int32(body)::Int32, out::Ptr{Cdouble})::Int32)
    return out
end

"""All body states as a 13×n matrix (column j+1 is body j)."""
function body_states(s::Sim)
    out = zeros(BODY_STATE_SIZE, s.n_bodies)
    check(@ccall libmaxdyn.maxdyn_sim_get_body_states(s::Ptr{Cvoid}, out::Ptr{Cdouble}, Csize_t(s.n_bodies)::Csize_t)::Int32)
    return out
end

set_body_state!(s::Sim, body::Integer, state) =
    check(@ccall libmaxdyn.maxdyn_sim_set_body_state(s::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(state, BODY_STATE_SIZE, "state")::Ptr{Cdouble})::Int32)

set_body_force!(s::Sim, body::Integer, force, torque=(0.0, 0.0, 0.0)) =
    check(@ccall libmaxdyn.maxdyn_sim_set_body_force(s::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(force, 3, "force")::Ptr{Cdouble}, doubles(torque, 3, "torque")::Ptr{Cdouble})::Int32)

dof(s::Sim, joint::Integer) = 0 <= joint < length(s.dofs) ? s.dofs[joint+1] : 0  # else the library reports it

function joint_position(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_position(s::Ptr{Cvoid}, Int32(joint)::Int32,
        out::Ptr{Cdouble}, Csize_t(length(out))::Csize_t)::Int32)
    return out
end

function joint_velocity(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_velocity(s::Ptr{Cvoid}, Int32(joint)::Int32,
        out::Ptr{Cdouble}, Csize_t(length(out))::Csize_t)::Int32)
    return out
end

function set_joint_position!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(@ccall libmaxdyn.maxdyn_sim_set_joint_position(s::Ptr{Cvoid}, Int32(joint)::Int32,
        v::Ptr{Cdouble}, Csize_t(length(v))::Csize_t)::Int32)
end

function set_joint_velocity!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(@ccall libmaxdyn.maxdyn_sim_set_joint_velocity(s::Ptr{Cvoid}, Int32(joint)::Int32,
        v::Ptr{Cdouble}, Csize_t(length(v))::Csize_t)::Int32)
end

"""(kinetic, potential) energy in J."""
function energy(s::Sim)
    k = Ref{Cdouble}(0.0)
    p = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_energy(s::Ptr{Cvoid}, k::Ptr{Cdouble}, p::Ptr{Cdouble})::Int32)
    return (k[], p[])
end

function constraint_violation(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_constraint_violation(s::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32)
    return out[]
end

"""The joint most violated now (`nothing` when every joint holds exactly) and its
largest constraint value; a step refuses to start beyond `JOINT_TOLERANCE`."""
function joint_violation(s::Sim)
    j = Ref{Int32}(-1)
    v = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_violation(s::Ptr{Cvoid}, j::Ptr{Int32}, v::Ptr{Cdouble})::Int32)
    return (j[] < 0 ? nothing : Int(j[])), v[]
end

"""Places every body so that every joint holds (tree bodies at the coordinates their
poses give, loops closed by the smallest mass-weighted motion); returns the violation
removed. A loop that cannot close throws (status 206) and changes nothing."""
function assemble!(s::Sim)
    v = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_assemble(s::Ptr{Cvoid}, v::Ptr{Cdouble})::Int32)
    return v[]
end

const JOINT_TOLERANCE = 1e-6

# --- contacts

"""Sphere of `radius` (0: a point) at body point `p` against the ground z ≥ 0; returns the contact id."""
function add_ground_contact!(b::Builder, body::Integer, p, radius::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_ground_contact(b::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(p, 3, "p")::Ptr{Cdouble}, Float64(radius)::Cdouble, Float64(friction)::Cdouble, out::Ptr{Int32})::Int32)
    return out[]
end

"""The same against the half-space normal·x ≥ offset."""
function add_plane_contact!(b::Builder, body::Integer, p, radius::Real, normal, offset::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_plane_contact(b::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(p, 3, "p")::Ptr{Cdouble}, Float64(radius)::Cdouble, doubles(normal, 3, "normal")::Ptr{Cdouble},
        Float64(offset)::Cdouble, Float64(friction)::Cdouble, out::Ptr{Int32})::Int32)
    return out[]
end

function add_sphere_contact!(b::Builder, body_a::Integer, pa, ra::Real, body_b::Integer, pb, rb::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_sphere_contact(b::Ptr{Cvoid}, Int32(body_a)::Int32,
        doubles(pa, 3, "pa")::Ptr{Cdouble}, Float64(ra)::Cdouble, Int32(body_b)::Int32, doubles(pb, 3, "pb")::Ptr{Cdouble},
        Float64(rb)::Cdouble, Float64(friction)::Cdouble, out::Ptr{Int32})::Int32)
    return out[]
end

"""`CONE_LINEAR` with an even number of `directions` (2…16), or `CONE_NONLINEAR`."""
set_contact_cone!(b::Builder, contact::Integer, cone_type::Integer, directions::Integer=4) =
    check(@ccall libmaxdyn.maxdyn_builder_set_contact_cone(b::Ptr{Cvoid}, Int32(contact)::Int32,
        Int32(cone_type)::Int32, Int32(directions)::Int32)::Int32)

function contact_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_get_contact_count(b::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function contact_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_contact_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function loop_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_get_loop_count(m::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

"""(gap, normal force, friction force (3, world)) of a contact: the gap now, the forces of the last step."""
function contact(s::Sim, c::Integer)
    out = zeros(CONTACT_SIZE)
    check(@ccall libmaxdyn.maxdyn_sim_get_contact(s::Ptr{Cvoid}, Int32(c)::Int32, out::Ptr{Cdouble})::Int32)
    return (out[1], out[2], out[3:5])
end

# --- force elements and inputs

function set_joint_spring!(b::Builder, joint::Integer, stiffness, rest)
    k = Float64[Float64(a) for a in stiffness]
    r = doubles(rest, length(k), "rest")
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_spring(b::Ptr{Cvoid}, Int32(joint)::Int32,
        k::Ptr{Cdouble}, r::Ptr{Cdouble}, Csize_t(length(k))::Csize_t)::Int32)
end

function set_joint_damper!(b::Builder, joint::Integer, damping)
    c = Float64[Float64(a) for a in damping]
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_damper(b::Ptr{Cvoid}, Int32(joint)::Int32,
        c::Ptr{Cdouble}, Csize_t(length(c))::Csize_t)::Int32)
end

"""Point-to-point spring-damper (`body_a` may be `WORLD`); returns its id."""
function add_spring!(b::Builder, body_a::Integer, pa, body_b::Integer, pb, stiffness::Real, damping::Real=0.0, rest_length::Real=0.0)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_spring(b::Ptr{Cvoid}, Int32(body_a)::Int32,
        doubles(pa, 3, "pa")::Ptr{Cdouble}, Int32(body_b)::Int32, doubles(pb, 3, "pb")::Ptr{Cdouble},
        Float64(stiffness)::Cdouble, Float64(damping)::Cdouble, Float64(rest_length)::Cdouble, out::Ptr{Int32})::Int32)
    return out[]
end

"""Force/torque per free direction of a joint; holds until changed."""
function set_joint_input!(s::Sim, joint::Integer, u)
    v = Float64[Float64(a) for a in u]
    check(@ccall libmaxdyn.maxdyn_sim_set_joint_input(s::Ptr{Cvoid}, Int32(joint)::Int32,
        v::Ptr{Cdouble}, Csize_t(length(v))::Csize_t)::Int32)
end

function joint_input(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_input(s::Ptr{Cvoid}, Int32(joint)::Int32,
        out::Ptr{Cdouble}, Csize_t(length(out))::Csize_t)::Int32)
    return out
end

"""World-frame `force` at body point `point` (body frame) and body-frame `torque`."""
set_body_wrench!(s::Sim, body::Integer, force, torque=(0.0, 0.0, 0.0), point=(0.0, 0.0, 0.0)) =
    check(@ccall libmaxdyn.maxdyn_sim_set_body_wrench(s::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(force, 3, "force")::Ptr{Cdouble}, doubles(torque, 3, "torque")::Ptr{Cdouble},
        doubles(point, 3, "point")::Ptr{Cdouble})::Int32)

"""(input work, damper dissipation) in J since the start or the last reset."""
function energy_account(s::Sim)
    w = Ref{Cdouble}(0.0)
    d = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_energy_account(s::Ptr{Cvoid}, w::Ptr{Cdouble}, d::Ptr{Cdouble})::Int32)
    return (w[], d[])
end

reset_energy_account!(s::Sim) = check(@ccall libmaxdyn.maxdyn_sim_reset_energy_account(s::Ptr{Cvoid})::Int32)

# --- names (URDF: link and joint names)

function find_body(b::Builder, name::AbstractString)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_find_body(b::Ptr{Cvoid}, name::Cstring, out::Ptr{Int32})::Int32)
    return out[]
end

function find_joint(b::Builder, name::AbstractString)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_find_joint(b::Ptr{Cvoid}, name::Cstring, out::Ptr{Int32})::Int32)
    return out[]
end

include("model_queries.jl")
include("collision_shapes.jl")
include("linearization.jl")
include("whole_state.jl")

end # module
