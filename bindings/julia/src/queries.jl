# Part of module MaxDyn (included by MaxDyn.jl): what a controller asks of a sim's current
# state (docs/QUERIES.md): poses, twists and Jacobians of frames and body points, the
# mass matrix, bias forces and inverse dynamics in minimal coordinates. The C API writes
# matrices row-major; they come back as Julia matrices of the same rows and columns.

export AXES_WORLD, AXES_LOCAL, point_pose, frame_velocity, point_velocity, velocity_count,
    frame_jacobian, point_jacobian, mass_matrix, bias_forces, inverse_dynamics, minimal_velocities

"""Twists and Jacobians in world axes (`:world`)."""
const AXES_WORLD = Int32(0)
"""Twists and Jacobians in the frame's (or body's) own axes (`:local`)."""
const AXES_LOCAL = Int32(1)

axes_arg(a::Symbol) = a === :world ? AXES_WORLD : a === :local ? AXES_LOCAL :
    throw(ArgumentError("axes must be :world or :local, got :$a"))
axes_arg(a::Integer) = Int32(a)

"""A row-major `rows × cols` C matrix, filled by `fill(buffer, length)`, as a Julia matrix."""
function rowmajor_matrix(fill, rows::Integer, cols::Integer)
    t = zeros(cols, rows)   # C's rows are the transpose's columns
    check(fill(t, Csize_t(length(t))))
    return permutedims(t)
end

"""World pose of named frame `frame`: position (3) and quaternion (w, x, y, z), 7 numbers."""
function frame_pose(s::Sim, frame::Integer)
    out = zeros(7)
    check(maxdyn_sim_get_frame_pose(s, Int32(frame), out))
    return out
end

"""World pose of the point `point` of `body` (body frame, from the centre of mass):
position (3), then the body's quaternion (w, x, y, z)."""
function point_pose(s::Sim, body::Integer, point=(0.0, 0.0, 0.0))
    out = zeros(7)
    check(maxdyn_sim_get_point_pose(s, Int32(body), doubles(point, 3, "point"), out))
    return out
end

"""Twist of named frame `frame`: v of its origin (3), then ω (3), in `axes` (`:world`
or `:local`, or `AXES_*`)."""
function frame_velocity(s::Sim, frame::Integer, axes=:world)
    out = zeros(6)
    check(maxdyn_sim_get_frame_velocity(s, Int32(frame), axes_arg(axes), out))
    return out
end

"""Twist of the point `point` of `body` (v of the point, ω of the body) in `axes`."""
function point_velocity(s::Sim, body::Integer, point=(0.0, 0.0, 0.0), axes=:world)
    out = zeros(6)
    check(maxdyn_sim_get_point_velocity(s, Int32(body), doubles(point, 3, "point"), axes_arg(axes), out))
    return out
end

"""Velocities in `coords` (the columns of a Jacobian): nv in `:minimal` (6 per floating
base, then every joint's), 6 per body in `:maximal`."""
function velocity_count(s::Sim, coords=:minimal)
    n = Ref{Csize_t}(0)
    check(maxdyn_sim_velocity_count(s, coords_arg(coords), n))
    return Int(n[])
end

function velocity_count(m::Model, coords=:minimal)
    n = Ref{Csize_t}(0)
    check(maxdyn_model_velocity_count(m, coords_arg(coords), n))
    return Int(n[])
end

"""6 × n Jacobian of named frame `frame`'s twist (in `axes`) with respect to the
velocities in `coords` (`:minimal`: floating bases first, then joints)."""
function frame_jacobian(s::Sim, frame::Integer, axes=:world, coords=:minimal)
    c = coords_arg(coords)
    return rowmajor_matrix(6, velocity_count(s, c)) do out, n
        maxdyn_sim_get_frame_jacobian(s, Int32(frame), axes_arg(axes), c, out, n)
    end
end

"""6 × n Jacobian of the twist of the point `point` of `body` (in `axes`) with respect to
the velocities in `coords`."""
function point_jacobian(s::Sim, body::Integer, point=(0.0, 0.0, 0.0), axes=:world, coords=:minimal)
    c = coords_arg(coords)
    p = doubles(point, 3, "point")
    return rowmajor_matrix(6, velocity_count(s, c)) do out, n
        maxdyn_sim_get_point_jacobian(s, Int32(body), p, axes_arg(axes), c, out, n)
    end
end

"""The joint-space mass matrix M(q), nv × nv (floating bases first)."""
function mass_matrix(s::Sim)
    n = velocity_count(s, :minimal)
    return rowmajor_matrix(n, n) do out, len
        maxdyn_sim_get_mass_matrix(s, out, len)
    end
end

"""Bias forces b(q, qd) (gravity, Coriolis, centrifugal) at minimal velocities `qd` (nv)."""
function bias_forces(s::Sim, qd)
    n = velocity_count(s, :minimal)
    out = zeros(n)
    check(maxdyn_sim_get_bias_forces(s, doubles(qd, n, "qd"), out, Csize_t(n)))
    return out
end

"""Generalized forces τ = M(q) qdd + b(q, qd) (nv): a floating base's wrench in its
frame's axes (force, moment about its origin), then the joint inputs."""
function inverse_dynamics(s::Sim, qd, qdd)
    n = velocity_count(s, :minimal)
    out = zeros(n)
    check(maxdyn_sim_inverse_dynamics(s, doubles(qd, n, "qd"), doubles(qdd, n, "qdd"), out, Csize_t(n)))
    return out
end

"""The minimal velocities (nv) at the current state: floating bases' twists, then every
joint's continuous rates (the convention of the Jacobians)."""
function minimal_velocities(s::Sim)
    out = zeros(velocity_count(s, :minimal))
    check(maxdyn_sim_get_minimal_velocities(s, out, Csize_t(length(out))))
    return out
end
