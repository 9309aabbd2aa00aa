"""
    MaxDyn

Julia binding of the maxdyn C API (`include/maxdyn.h`).

The shared library is found when the module is loaded (`__init__`, not at precompile
time), in this order: the file named by `ENV["MAXDYN_LIBRARY"]` (or `ENV["MAXDYN_LIB"]`);
the installed library (pkg-config's libdir for maxdyn, else the system library path;
`scripts/install.sh`); the checkout's `target/release` or `target/debug` (or under
`\$CARGO_TARGET_DIR`). A library found nowhere is an error that lists the places
searched; `MaxDyn.library_path()` tells which was loaded. Ids of bodies and joints are
the C API's: they count from 0, and the world is `MaxDyn.WORLD` (-1). Objects free their
C handle in a finalizer or on `close`; they are passed to C as themselves
(`Base.unsafe_convert` gives the pointer), so each call roots them and a finalizer
cannot free a handle while C uses it. Every failing call throws a `MaxDynError`
carrying the status code and the library's last error message. Vectors come back as
`Vector{Float64}`, matrices as `Matrix{Float64}` with the C API's rows and columns
(Jacobians 6 × nv, the mass matrix nv × nv).

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

using Libdl

export MaxDynError, check, Builder, Model, Sim, builder_from_urdf, set_gravity!, add_body!,
    set_body_pose!, set_body_velocity!, add_joint!, set_joint_offset!, body_count,
    joint_count, joint_dof, step!, sim_time, body_state, body_states, set_body_state!,
    set_body_force!, joint_position, joint_velocity, set_joint_position!,
    set_joint_velocity!, energy, constraint_violation, joint_violation, assemble!, JOINT_TOLERANCE, INTEGRATOR_FIRST_ORDER, INTEGRATOR_SECOND_ORDER, INTEGRATOR_FOURTH_ORDER, add_ground_contact!, add_plane_contact!,
    add_sphere_contact!, set_contact_cone!, contact_count, contact, set_joint_spring!,
    set_joint_damper!, add_spring!, set_joint_input!, joint_input, set_joint_target!, joint_target, set_body_wrench!,
    energy_account, reset_energy_account!, find_body, find_joint, loop_count,
    set_body_name!, set_joint_name!, set_joint_limits!, add_mimic!, add_frame!, body_name,
    joint_name, frame_name, find_frame, joint_type, joint_parent, joint_child, body_mass,
    body_inertia, frame_count, frame_body, frame_pose, limit_count, joint_limits,
    mimic_count, mimic, state_dimensions, linearize, linearize_differences,
    set_base_frame!, dimensions, configuration, set_configuration!, generalized_velocity,
    set_generalized_velocity!, joint_inputs, set_joint_inputs!, joint_targets, set_joint_targets!, add_universal_joint!, gravity,
    contact_cone, spring_count, version, live_objects, library_path

include("library.jl")
include("c_structs.jl")
include("c_api.jl")

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

status_string(status::Integer) = unsafe_string(maxdyn_status_string(Int32(status)))

Base.showerror(io::IO, e::MaxDynError) =
    print(io, "maxdyn status ", e.status, " (", status_string(e.status), "): ", e.message)

"""
    check(status)

Throws a `MaxDynError` with `maxdyn_last_error_message()` unless `status` is 0.
"""
function check(status::Integer)
    status == 0 && return nothing
    message = unsafe_string(maxdyn_last_error_message())
    throw(MaxDynError(Int32(status), message))
end

version() = unsafe_string(maxdyn_version())

"""Builders, models and sims created and not yet freed (for leak checks)."""
live_objects() = Int(maxdyn_debug_live_objects())

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
        check(maxdyn_builder_new(out))
        return finalizer(close, new(out[]))
    end
    Builder(ptr::Ptr{Cvoid}) = finalizer(close, new(ptr))
end

mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(b::Builder)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(maxdyn_model_new(b, out))
        return finalizer(close, new(out[]))
    end
end

mutable struct Sim
    ptr::Ptr{Cvoid}
    n_bodies::Int
    dofs::Vector{Int}   # per joint, from the model at creation (the model may be freed)
    owner::Any          # the Batch that owns this sim (and frees it), or nothing
    control::Any        # the control callback (`set_control_callback!`), or nothing
    control_error::Any  # what the callback threw during the last step, or nothing
    function Sim(m::Model, dt::Real)
        nb = body_count(m)
        dofs = [joint_dof(m, j) for j in 0:joint_count(m)-1]
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(maxdyn_sim_new(m, Float64(dt), out))
        return finalizer(close, new(out[], nb, dofs, nothing, nothing, nothing))
    end
    # a sim made by C (a copy, or a batch's when `owner` is the batch)
    function Sim(ptr::Ptr{Cvoid}, n_bodies::Int, dofs::Vector{Int}, owner)
        s = new(ptr, n_bodies, dofs, owner, nothing, nothing)
        return owner === nothing ? finalizer(close, s) : s
    end
end

function handle(obj)
    obj.ptr == C_NULL && throw(ArgumentError("$(typeof(obj)) is closed"))
    return obj.ptr
end

# A `Ptr{Cvoid}` argument of a C function (c_api.jl) converts through here, and `ccall`
# keeps `obj` rooted during the call (the GC.@preserve it does for its arguments), so
# its finalizer cannot run while C holds the pointer.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, obj::Union{Builder,Model,Sim}) = handle(obj)

# finalizers and explicit close: free once, NULL afterwards
function Base.close(b::Builder)
    b.ptr == C_NULL || maxdyn_builder_free(b.ptr)
    b.ptr = C_NULL
    return nothing
end
function Base.close(m::Model)
    m.ptr == C_NULL || maxdyn_model_free(m.ptr)
    m.ptr = C_NULL
    return nothing
end
# a batch's sim is freed by its batch: closing it only forgets the pointer
function Base.close(s::Sim)
    s.ptr == C_NULL || s.owner !== nothing || maxdyn_sim_free(s.ptr)
    s.ptr = C_NULL
    return nothing
end

# --- builder

"""Loads a URDF file into a new builder (bodies and joints in file order; see maxdyn.h)."""
function builder_from_urdf(path::AbstractString; floating::Bool=false)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(maxdyn_builder_from_urdf(path, Int32(floating), out))
    return Builder(out[])
end

set_gravity!(b::Builder, g) =
    check(maxdyn_builder_set_gravity(b, doubles(g, 3, "g")))

"""Adds a body (mass, 3×3 inertia about the centre of mass in the body frame); returns its id."""
function add_body!(b::Builder, mass::Real, inertia)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_body(b, Float64(mass), rowmajor3x3(inertia), out))
    return Int(out[])
end

set_body_pose!(b::Builder, body::Integer, x, q) =
    check(maxdyn_builder_set_body_pose(b, Int32(body), doubles(x, 3, "x"), doubles(q, 4, "q")))

set_body_velocity!(b::Builder, body::Integer, v, omega) =
    check(maxdyn_builder_set_body_velocity(b, Int32(body), doubles(v, 3, "v"), doubles(omega, 3, "omega")))

"""Adds a joint (type, parent id or `WORLD`, child id, joint points, axis in the parent frame); returns its id."""
function add_joint!(b::Builder, type::Integer, parent::Integer, child::Integer, p_parent, p_child, axis=(1.0, 0.0, 0.0))
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_joint(b, Int32(type), Int32(parent), Int32(child), doubles(p_parent, 3, "p_parent"),
        doubles(p_child, 3, "p_child"), doubles(axis, 3, "axis"), out))
    return Int(out[])
end

"""A universal (Hooke) joint: α about `axis_parent` (parent frame), then β about
`axis_child` (child frame, perpendicular to it); returns its id."""
function add_universal_joint!(b::Builder, parent::Integer, child::Integer, p_parent, p_child, axis_parent, axis_child)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_universal_joint(b, Int32(parent), Int32(child), doubles(p_parent, 3, "p_parent"),
        doubles(p_child, 3, "p_child"), doubles(axis_parent, 3, "axis_parent"), doubles(axis_child, 3, "axis_child"), out))
    return Int(out[])
end

"""The gravity vector (3, m/s², world frame)."""
function gravity(b::Builder)
    out = zeros(3)
    check(maxdyn_builder_get_gravity(b, out))
    return out
end

set_joint_offset!(b::Builder, joint::Integer, q) =
    check(maxdyn_builder_set_joint_offset(b, Int32(joint), doubles(q, 4, "q")))

function body_count(b::Builder)
    out = Ref{Int32}(0)
    check(maxdyn_builder_get_body_count(b, out))
    return Int(out[])
end

function joint_count(b::Builder)
    out = Ref{Int32}(0)
    check(maxdyn_builder_get_joint_count(b, out))
    return Int(out[])
end

# --- model

function body_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_body_count(m, out))
    return Int(out[])
end

function joint_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_joint_count(m, out))
    return Int(out[])
end

function joint_dof(m::Model, joint::Integer)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_joint_dof(m, Int32(joint), out))
    return Int(out[])
end

# --- sim

"""Takes `n` steps (in C: `maxdyn_sim_step_n`), throwing a `MaxDynError` at the first
failure (`step_count` tells how many were taken) or, if the control callback threw, that
exception (the step it aborted changed nothing)."""
function step!(s::Sim, n::Integer=1)
    n >= 0 || throw(ArgumentError("step! needs n >= 0, got $n"))
    if n == 1
        status = maxdyn_sim_step(s)
        rethrow_control_error(s)
        check(status)
        return s
    end
    left = Int(n)
    while left > 0
        chunk = min(left, typemax(Int32))
        status = maxdyn_sim_step_n(s, Int32(chunk))
        rethrow_control_error(s)
        check(status)
        left -= chunk
    end
    return s
end

function sim_time(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_time(s, out))
    return out[]
end

"""13 doubles: x(3), q(4: w,x,y,z), v(3, world frame), ω(3, body frame)."""
function body_state(s::Sim, body::Integer)
    out = zeros(BODY_STATE_SIZE)
    check(maxdyn_sim_get_body_state(s, Int32(body), out))
    return out
end

"""All body states as a 13×n matrix (column j+1 is body j)."""
function body_states(s::Sim)
    out = zeros(BODY_STATE_SIZE, s.n_bodies)
    check(maxdyn_sim_get_body_states(s, out, Csize_t(s.n_bodies)))
    return out
end

set_body_state!(s::Sim, body::Integer, state) =
    check(maxdyn_sim_set_body_state(s, Int32(body), doubles(state, BODY_STATE_SIZE, "state")))

set_body_force!(s::Sim, body::Integer, force, torque=(0.0, 0.0, 0.0)) =
    check(maxdyn_sim_set_body_force(s, Int32(body), doubles(force, 3, "force"), doubles(torque, 3, "torque")))

dof(s::Sim, joint::Integer) = 0 <= joint < length(s.dofs) ? s.dofs[joint+1] : 0  # else the library reports it

function joint_position(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(maxdyn_sim_get_joint_position(s, Int32(joint), out, Csize_t(length(out))))
    return out
end

function joint_velocity(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(maxdyn_sim_get_joint_velocity(s, Int32(joint), out, Csize_t(length(out))))
    return out
end

function set_joint_position!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(maxdyn_sim_set_joint_position(s, Int32(joint), v, Csize_t(length(v))))
end

function set_joint_velocity!(s::Sim, joint::Integer, values)
    v = Float64[Float64(a) for a in values]
    check(maxdyn_sim_set_joint_velocity(s, Int32(joint), v, Csize_t(length(v))))
end

"""(kinetic, potential) energy in J."""
function energy(s::Sim)
    k = Ref{Cdouble}(0.0)
    p = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_energy(s, k, p))
    return (k[], p[])
end

function constraint_violation(s::Sim)
    out = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_constraint_violation(s, out))
    return out[]
end

"""The joint most violated now (`nothing` when every joint holds exactly) and its
largest constraint value; a step refuses to start beyond `JOINT_TOLERANCE`."""
function joint_violation(s::Sim)
    j = Ref{Int32}(-1)
    v = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_joint_violation(s, j, v))
    return (j[] < 0 ? nothing : Int(j[])), v[]
end

"""Places every body so that every joint holds (tree bodies at the coordinates their
poses give, loops closed by the smallest mass-weighted motion); returns the violation
removed. A loop that cannot close throws (status 206) and changes nothing."""
function assemble!(s::Sim)
    v = Ref{Cdouble}(0.0)
    check(maxdyn_sim_assemble(s, v))
    return v[]
end

const JOINT_TOLERANCE = 1e-6
"The integrators of `SolverOptions.integrator` (maxdyn.h `MAXDYN_INTEGRATOR_*`)."
const INTEGRATOR_FIRST_ORDER = Int32(0)
const INTEGRATOR_SECOND_ORDER = Int32(1)
const INTEGRATOR_FOURTH_ORDER = Int32(2)

# --- names (URDF: link and joint names)

function find_body(b::Builder, name::AbstractString)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_find_body(b, name, out))
    return out[]
end

function find_joint(b::Builder, name::AbstractString)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_find_joint(b, name, out))
    return out[]
end

include("contacts_forces.jl")
include("model_queries.jl")
include("collision_shapes.jl")
include("linearization.jl")
include("whole_state.jl")
include("queries.jl")
include("sim_state.jl")
include("control_callback.jl")
include("diagnostics.jl")
include("solver_options.jl")
include("batch.jl")
include("recorder.jl")

end # module
