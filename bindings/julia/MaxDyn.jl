"""
    MaxDyn

Julia binding of the maxdyn C API (`include/maxdyn.h`) through `@ccall`.

The shared library is `ENV["MAXDYN_LIB"]` when set (a full path to libmaxdyn.so /
.dylib / maxdyn.dll), else `libmaxdyn` on the system library path. Ids of bodies and
joints are the C API's: they count from 0, and the world is `MaxDyn.WORLD` (-1).
Objects free their C handle in a finalizer or on `close`. Every failing call throws a
`MaxDynError` carrying the status code and the library's last error message.

```julia
include("MaxDyn.jl"); using .MaxDyn
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
    set_joint_velocity!, energy, constraint_violation

const libmaxdyn = get(ENV, "MAXDYN_LIB", "libmaxdyn")

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
        check(@ccall libmaxdyn.maxdyn_model_new(handle(b)::Ptr{Cvoid}, out::Ptr{Ptr{Cvoid}})::Int32)
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
        check(@ccall libmaxdyn.maxdyn_sim_new(handle(m)::Ptr{Cvoid}, Float64(dt)::Cdouble, out::Ptr{Ptr{Cvoid}})::Int32)
        return finalizer(close, new(out[], nb, dofs))
    end
end

function handle(obj)
    obj.ptr == C_NULL && throw(ArgumentError("$(typeof(obj)) is closed"))
    return obj.ptr
end

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
    check(@ccall libmaxdyn.maxdyn_builder_set_gravity(handle(b)::Ptr{Cvoid}, doubles(g, 3, "g")::Ptr{Cdouble})::Int32)

"""Adds a body (mass, 3×3 inertia about the centre of mass in the body frame); returns its id."""
function add_body!(b::Builder, mass::Real, inertia)
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_body(handle(b)::Ptr{Cvoid}, Float64(mass)::Cdouble,
        rowmajor3x3(inertia)::Ptr{Cdouble}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

set_body_pose!(b::Builder, body::Integer, x, q) =
    check(@ccall libmaxdyn.maxdyn_builder_set_body_pose(handle(b)::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(x, 3, "x")::Ptr{Cdouble}, doubles(q, 4, "q")::Ptr{Cdouble})::Int32)

set_body_velocity!(b::Builder, body::Integer, v, omega) =
    check(@ccall libmaxdyn.maxdyn_builder_set_body_velocity(handle(b)::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(v, 3, "v")::Ptr{Cdouble}, doubles(omega, 3, "omega")::Ptr{Cdouble})::Int32)

"""Adds a joint (type, parent id or `WORLD`, child id, joint points, axis in the parent frame); returns its id."""
function add_joint!(b::Builder, type::Integer, parent::Integer, child::Integer, p_parent, p_child, axis=(1.0, 0.0, 0.0))
    out = Ref{Int32}(-1)
    check(@ccall libmaxdyn.maxdyn_builder_add_joint(handle(b)::Ptr{Cvoid}, Int32(type)::Int32,
        Int32(parent)::Int32, Int32(child)::Int32, doubles(p_parent, 3, "p_parent")::Ptr{Cdouble},
        doubles(p_child, 3, "p_child")::Ptr{Cdouble}, doubles(axis, 3, "axis")::Ptr{Cdouble}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

set_joint_offset!(b::Builder, joint::Integer, q) =
    check(@ccall libmaxdyn.maxdyn_builder_set_joint_offset(handle(b)::Ptr{Cvoid}, Int32(joint)::Int32,
        doubles(q, 4, "q")::Ptr{Cdouble})::Int32)

function body_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_body_count(handle(b)::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_count(b::Builder)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_builder_joint_count(handle(b)::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

# --- model

function body_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_body_count(handle(m)::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_count(m::Model)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_joint_count(handle(m)::Ptr{Cvoid}, out::Ptr{Int32})::Int32)
    return Int(out[])
end

function joint_dof(m::Model, joint::Integer)
    out = Ref{Int32}(0)
    check(@ccall libmaxdyn.maxdyn_model_joint_dof(handle(m)::Ptr{Cvoid}, Int32(joint)::Int32, out::Ptr{Int32})::Int32)
    return Int(out[])
end

# --- sim

function step!(s::Sim, n::Integer=1)
    for _ in 1:n
        check(@ccall libmaxdyn.maxdyn_sim_step(handle(s)::Ptr{Cvoid})::Int32)
    end
    return s
end

function sim_time(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_get_time(handle(s)::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32)
    return out[]
end

"""13 doubles: x(3), q(4: w,x,y,z), v(3, world frame), ω(3, body frame)."""
function body_state(s::Sim, body::Integer)
    out = zeros(BODY_STATE_SIZE)
    check(@ccall libmaxdyn.maxdyn_sim_get_body_state(handle(s)::Ptr{Cvoid}, Int32(body)::Int32, out::Ptr{Cdouble})::Int32)
    return out
end

"""All body states as a 13×n matrix (column j+1 is body j)."""
function body_states(s::Sim)
    out = zeros(BODY_STATE_SIZE, s.n_bodies)
    check(@ccall libmaxdyn.maxdyn_sim_get_body_states(handle(s)::Ptr{Cvoid}, out::Ptr{Cdouble}, Csize_t(s.n_bodies)::Csize_t)::Int32)
    return out
end

set_body_state!(s::Sim, body::Integer, state) =
    check(@ccall libmaxdyn.maxdyn_sim_set_body_state(handle(s)::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(state, BODY_STATE_SIZE, "state")::Ptr{Cdouble})::Int32)

set_body_force!(s::Sim, body::Integer, force, torque=(0.0, 0.0, 0.0)) =
    check(@ccall libmaxdyn.maxdyn_sim_set_body_force(handle(s)::Ptr{Cvoid}, Int32(body)::Int32,
        doubles(force, 3, "force")::Ptr{Cdouble}, doubles(torque, 3, "torque")::Ptr{Cdouble})::Int32)

dof(s::Sim, joint::Integer) = 0 <= joint < length(s.dofs) ? s.dofs[joint+1] : 0  # else the library reports it

function joint_position(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_position(handle(s)::Ptr{Cvoid}, Int32(joint)::Int32,
        out::Ptr{Cdouble}, Csize_t(length(out))::Csize_t)::Int32)
    return out
end

function joint_velocity(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(@ccall libmaxdyn.maxdyn_sim_get_joint_velocity(handle(s)::Ptr{Cvoid}, Int32(joint)::Int32,
        out::Ptr{Cdouble}, Csize_t(length(out))::Csize_t)::Int32)
    return out
end

function set_joint_position!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(@ccall libmaxdyn.maxdyn_sim_set_joint_position(handle(s)::Ptr{Cvoid}, Int32(joint)::Int32,
        v::Ptr{Cdouble}, Csize_t(length(v))::Csize_t)::Int32)
end

function set_joint_velocity!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(@ccall libmaxdyn.maxdyn_sim_set_joint_velocity(handle(s)::Ptr{Cvoid}, Int32(joint)::Int32,
        v::Ptr{Cdouble}, Csize_t(length(v))::Csize_t)::Int32)
end

"""(kinetic, potential) energy in J."""
function energy(s::Sim)
    k = Ref{Cdouble}(0.0)
    p = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_energy(handle(s)::Ptr{Cvoid}, k::Ptr{Cdouble}, p::Ptr{Cdouble})::Int32)
    return (k[], p[])
end

function constraint_violation(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(@ccall libmaxdyn.maxdyn_sim_constraint_violation(handle(s)::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32)
    return out[]
end

end # module
