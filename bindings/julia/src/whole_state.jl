# Part of module MaxDyn (included by MaxDyn.jl): whole-state vectors in minimal
# coordinates, one C call each (issue 26; docs/QUERIES.md "Floating bases and whole-state
# vectors"). A floating base (a body no joint places) comes first: in q its frame's
# position and quaternion (w, x, y, z), in v its frame's linear and angular velocity in its
# own axes; then every joint in joint-id order.

"""The reference frame of `body` as a floating base: `pose` = position (3, body frame) and
quaternion (w, x, y, z). Default: the body frame; a URDF loaded floating uses its root link's."""
set_base_frame!(b::Builder, body::Integer, pose) =
    check(maxdyn_builder_set_base_frame(b, Int32(body), doubles(pose, 7, "pose")))

"""(nq, nv, nu): configuration entries, generalized velocities, joint inputs of a model."""
function dimensions(m::Model)
    nq, nv, nu = Ref{Csize_t}(0), Ref{Csize_t}(0), Ref{Csize_t}(0)
    check(maxdyn_model_get_dimensions(m, nq, nv, nu))
    return Int(nq[]), Int(nv[]), Int(nu[])
end

"""(nq, nv, nu) of the sim's model."""
function dimensions(s::Sim)
    nq, nv, nu = Ref{Csize_t}(0), Ref{Csize_t}(0), Ref{Csize_t}(0)
    check(maxdyn_sim_get_dimensions(s, nq, nv, nu))
    return Int(nq[]), Int(nv[]), Int(nu[])
end

"""The configuration q (nq): floating bases (position, quaternion w x y z), then every
joint's coordinates."""
function configuration(s::Sim)
    q = zeros(dimensions(s)[1])
    check(maxdyn_sim_get_configuration(s, q, Csize_t(length(q))))
    return q
end

"""Sets the whole configuration q (nq) in one call: the bases and every joint; the
generalized velocity is kept. A base quaternion must be unit within 1e-6."""
function set_configuration!(s::Sim, q)
    v = Float64[Float64(a) for a in q]
    check(maxdyn_sim_set_configuration(s, v, Csize_t(length(v))))
end

"""The generalized velocity v (nv): bases' twists in their own axes, then every joint's rates."""
function generalized_velocity(s::Sim)
    v = zeros(dimensions(s)[2])
    check(maxdyn_sim_get_generalized_velocity(s, v, Csize_t(length(v))))
    return v
end

"""Sets the whole generalized velocity v (nv) in one call; the configuration is kept."""
function set_generalized_velocity!(s::Sim, v)
    w = Float64[Float64(a) for a in v]
    check(maxdyn_sim_set_generalized_velocity(s, w, Csize_t(length(w))))
end

"""Every joint's input in joint-id order (nu)."""
function joint_inputs(s::Sim)
    u = zeros(dimensions(s)[3])
    check(maxdyn_sim_get_joint_inputs(s, u, Csize_t(length(u))))
    return u
end

"""Sets every joint's input at once (nu, joint-id order); held until changed."""
function set_joint_inputs!(s::Sim, u)
    w = Float64[Float64(a) for a in u]
    check(maxdyn_sim_set_joint_inputs(s, w, Csize_t(length(w))))
end

"""Every joint's servo target in joint-id order: (position, velocity), nu each."""
function joint_targets(s::Sim)
    p, v = zeros(dimensions(s)[3]), zeros(dimensions(s)[3])
    check(maxdyn_sim_get_joint_targets(s, p, v, Csize_t(length(p))))
    return p, v
end

"""Sets every joint's servo target at once (nu each, joint-id order; rates zero if
omitted); joints with neither a spring nor a damper take 0."""
function set_joint_targets!(s::Sim, position, velocity=zeros(length(position)))
    p = Float64[Float64(a) for a in position]
    v = Float64[Float64(a) for a in velocity]
    length(v) == length(p) || throw(ArgumentError("velocity needs $(length(p)) numbers (as position), got $(length(v))"))
    check(maxdyn_sim_set_joint_targets(s, p, v, Csize_t(length(p))))
end
