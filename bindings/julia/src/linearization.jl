# Part of module MaxDyn (included by MaxDyn.jl): the linearization of one step,
# x_{k+1} = f(x_k, u_k), from the sim's current state and inputs (issue 13).

export input_derivative

"""Minimal coordinates: x = every joint's positions then every joint's velocities (joint-id
order, as `joint_position`/`joint_velocity` return them), u = every joint's inputs; models
with kinematic loops are refused."""
const COORDS_MINIMAL = Int32(0)
"""Maximal coordinates: x = the 13 numbers of `body_state` per body, u = every body's
wrench, force (world) then torque (body frame)."""
const COORDS_MAXIMAL = Int32(1)

coords_arg(c::Symbol) = c === :minimal ? COORDS_MINIMAL : c === :maximal ? COORDS_MAXIMAL :
    throw(ArgumentError("coords must be :minimal or :maximal, got :$c"))
coords_arg(c::Integer) = Int32(c)

"""(nx, nu): the sizes of `linearize`'s A (nx × nx) and B (nx × nu) in `coords`."""
function state_dimensions(s::Sim, coords=:minimal)
    nx, nu = Ref{Csize_t}(0), Ref{Csize_t}(0)
    check(maxdyn_sim_state_dimensions(s, coords_arg(coords), nx, nu))
    return Int(nx[]), Int(nu[])
end

# C writes row-major nx × nx and nx × nu: filled transposed, then transposed back.
function linearization(call, s::Sim, coords)
    nx, nu = state_dimensions(s, coords)
    at, bt = zeros(nx, nx), zeros(nu, nx)
    check(call(coords_arg(coords), at, bt))
    return permutedims(at), permutedims(bt)
end

"""(A, B) of one step x_{k+1} = f(x_k, u_k) from the current state and inputs, A = ∂f/∂x
and B = ∂f/∂u, in `coords` (`:minimal`/`COORDS_MINIMAL` or `:maximal`/`COORDS_MAXIMAL`);
the sim is not advanced."""
linearize(s::Sim, coords=:minimal) = linearization(s, coords) do c, a, b
    maxdyn_sim_linearize(s, c, a, b)
end

"""`linearize` by central differences of whole steps with step `h` on every entry."""
linearize_differences(s::Sim, coords, h::Real) = linearization(s, coords) do c, a, b
    maxdyn_sim_linearize_differences(s, c, Float64(h), a, b)
end

"""(nx, nu) of a linearization in `coords` for any sim of the model."""
function state_dimensions(m::Model, coords=:minimal)
    nx, nu = Ref{Csize_t}(0), Ref{Csize_t}(0)
    check(maxdyn_model_state_size(m, coords_arg(coords), nx, nu))
    return Int(nx[]), Int(nu[])
end

"""B = ∂x_{k+1}/∂u alone (nx × nu), as `linearize` gives it, without A."""
function input_derivative(s::Sim, coords=:minimal)
    nx, nu = state_dimensions(s, coords)
    bt = zeros(nu, nx)
    check(maxdyn_sim_input_derivative(s, coords_arg(coords), bt, Csize_t(length(bt))))
    return permutedims(bt)
end
