# Part of module MaxDyn (included by MaxDyn.jl): contacts described point by point and
# their friction cones, force elements (joint springs and dampers, point-to-point
# springs), held inputs (joint inputs, body wrenches) and the energy account.

# --- contacts

"""Sphere of `radius` (0: a point) at body point `p` against the ground z ≥ 0; returns the contact id."""
function add_ground_contact!(b::Builder, body::Integer, p, radius::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_ground_contact(b, Int32(body),
        doubles(p, 3, "p"), Float64(radius), Float64(friction), out))
    return out[]
end

"""The same against the half-space normal·x ≥ offset."""
function add_plane_contact!(b::Builder, body::Integer, p, radius::Real, normal, offset::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_plane_contact(b, Int32(body),
        doubles(p, 3, "p"), Float64(radius), doubles(normal, 3, "normal"),
        Float64(offset), Float64(friction), out))
    return out[]
end

function add_sphere_contact!(b::Builder, body_a::Integer, pa, ra::Real, body_b::Integer, pb, rb::Real, friction::Real)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_sphere_contact(b, Int32(body_a),
        doubles(pa, 3, "pa"), Float64(ra), Int32(body_b), doubles(pb, 3, "pb"),
        Float64(rb), Float64(friction), out))
    return out[]
end

"""`CONE_LINEAR` with an even number of `directions` (2…16), or `CONE_NONLINEAR`."""
set_contact_cone!(b::Builder, contact::Integer, cone_type::Integer, directions::Integer=4) =
    check(maxdyn_builder_set_contact_cone(b, Int32(contact), Int32(cone_type), Int32(directions)))

function contact_count(b::Builder)
    out = Ref{Int32}(0)
    check(maxdyn_builder_get_contact_count(b, out))
    return Int(out[])
end

"""(cone type, directions) of contact `c`."""
function contact_cone(b::Builder, c::Integer)
    t, d = Ref{Int32}(0), Ref{Int32}(0)
    check(maxdyn_builder_get_contact_cone(b, Int32(c), t, d))
    return (t[], Int(d[]))
end

"""Point-to-point springs added so far."""
function spring_count(b::Builder)
    out = Ref{Int32}(0)
    check(maxdyn_builder_get_spring_count(b, out))
    return Int(out[])
end

function contact_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_contact_count(m, out))
    return Int(out[])
end

function loop_count(m::Model)
    out = Ref{Int32}(0)
    check(maxdyn_model_get_loop_count(m, out))
    return Int(out[])
end

"""(gap, normal force, friction force (3, world)) of a contact: the gap now, the forces of the last step."""
function contact(s::Sim, c::Integer)
    out = zeros(CONTACT_SIZE)
    check(maxdyn_sim_get_contact(s, Int32(c), out))
    return (out[1], out[2], out[3:5])
end

# --- force elements and inputs

function set_joint_spring!(b::Builder, joint::Integer, stiffness, rest)
    k = Float64[Float64(a) for a in stiffness]
    r = doubles(rest, length(k), "rest")
    check(maxdyn_builder_set_joint_spring(b, Int32(joint), k, r, Csize_t(length(k))))
end

function set_joint_damper!(b::Builder, joint::Integer, damping)
    c = Float64[Float64(a) for a in damping]
    check(maxdyn_builder_set_joint_damper(b, Int32(joint), c, Csize_t(length(c))))
end

"""Point-to-point spring-damper (`body_a` may be `WORLD`); returns its id."""
function add_spring!(b::Builder, body_a::Integer, pa, body_b::Integer, pb, stiffness::Real, damping::Real=0.0, rest_length::Real=0.0)
    out = Ref{Int32}(-1)
    check(maxdyn_builder_add_spring(b, Int32(body_a), doubles(pa, 3, "pa"), Int32(body_b), doubles(pb, 3, "pb"),
        Float64(stiffness), Float64(damping), Float64(rest_length), out))
    return out[]
end

"""Force/torque per free direction of a joint; holds until changed."""
function set_joint_input!(s::Sim, joint::Integer, u)
    v = Float64[Float64(a) for a in u]
    check(maxdyn_sim_set_joint_input(s, Int32(joint), v, Csize_t(length(v))))
end

function joint_input(s::Sim, joint::Integer)
    out = zeros(dof(s, joint))
    check(maxdyn_sim_get_joint_input(s, Int32(joint), out, Csize_t(length(out))))
    return out
end

"""Servo target of a joint with a spring or a damper: the spring pulls toward `position`
and the damper toward the rate `velocity` (zeros if omitted), damping implicit in the
step; holds until changed."""
function set_joint_target!(s::Sim, joint::Integer, position, velocity=zeros(length(position)))
    p = Float64[Float64(a) for a in position]
    v = Float64[Float64(a) for a in velocity]
    length(v) == length(p) || throw(ArgumentError("velocity needs $(length(p)) numbers (as position), got $(length(v))"))
    check(maxdyn_sim_set_joint_target(s, Int32(joint), p, v, Csize_t(length(p))))
end

"""The joint's servo target: (position, velocity)."""
function joint_target(s::Sim, joint::Integer)
    p, v = zeros(dof(s, joint)), zeros(dof(s, joint))
    check(maxdyn_sim_get_joint_target(s, Int32(joint), p, v, Csize_t(length(p))))
    return p, v
end

"""World-frame `force` at body point `point` (body frame) and body-frame `torque`."""
set_body_wrench!(s::Sim, body::Integer, force, torque=(0.0, 0.0, 0.0), point=(0.0, 0.0, 0.0)) =
    check(maxdyn_sim_set_body_wrench(s, Int32(body), doubles(force, 3, "force"), doubles(torque, 3, "torque"),
        doubles(point, 3, "point")))

"""(input work, damper dissipation) in J since the start or the last reset."""
function energy_account(s::Sim)
    w = Ref{Cdouble}(0.0)
    d = Ref{Cdouble}(0.0)
    check(maxdyn_sim_get_energy_account(s, w, d))
    return (w[], d[])
end

reset_energy_account!(s::Sim) = check(maxdyn_sim_reset_energy_account(s))
