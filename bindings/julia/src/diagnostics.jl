# Part of module MaxDyn (included by MaxDyn.jl): what the last step did and how far the
# current state is from its constraints: step statistics, limits and mimics, constraint
# rank, spring energy, contact slots and penetration.

export step_stats, limit, limit_violation, mimic_violation, constraint_rank, spring_energy,
    contact_slots, deepest_penetration, resolved_penetration

"""What the last step did (a `StepStats`); all zero before the first step."""
function step_stats(s::Sim)
    out = Ref{StepStats}()
    check(maxdyn_sim_get_step_stats_sized(s, out, Csize_t(sizeof(StepStats))))
    return out[]
end

"""Bounded joint coordinates of the sim's model."""
function limit_count(s::Sim)
    out = Ref{Int32}(0)
    check(maxdyn_sim_get_limit_count(s, out))
    return Int(out[])
end

"""(coordinate, lower, upper, violation, force) of limit `id`: the limited coordinate's
value, its bounds (±Inf on a free side), how far it is outside them and the limit's
generalized force in the last step."""
function limit(s::Sim, id::Integer)
    out = zeros(5)
    check(maxdyn_sim_get_limit(s, Int32(id), out))
    return (out[1], out[2], out[3], out[4], out[5])
end

function read_double(get, s::Sim)
    out = Ref{Cdouble}(0.0)
    check(get(s, out))
    return out[]
end

"""The largest limit violation now (0 inside every limit)."""
limit_violation(s::Sim) = read_double(maxdyn_sim_get_limit_violation, s)
"""The largest |q_follower − multiplier · q_leader − offset| over the mimics now."""
mimic_violation(s::Sim) = read_double(maxdyn_sim_get_mimic_violation, s)
"""Potential energy in the springs (J, part of `energy(s)[2]`)."""
spring_energy(s::Sim) = read_double(maxdyn_sim_get_spring_energy, s)
"""Deepest penetration (m, ≥ 0) at the current configuration, contacts and shapes alike."""
deepest_penetration(s::Sim) = read_double(maxdyn_sim_get_deepest_penetration, s)
"""The penetration depth (m) the last step moved the bodies out of before it stepped."""
resolved_penetration(s::Sim) = read_double(maxdyn_sim_get_resolved_penetration, s)

"""(rows, rank, redundant, dof) of the joint constraints at the current state (a dense
SVD: a set-up diagnostic)."""
function constraint_rank(s::Sim)
    o = [Ref{Int32}(0) for _ in 1:4]
    check(maxdyn_sim_get_constraint_rank(s, o[1], o[2], o[3], o[4]))
    return (Int(o[1][]), Int(o[2][]), Int(o[3][]), Int(o[4][]))
end

"""Contact slots the step's layout holds now (at most `contact_capacity(model)`)."""
function contact_slots(s::Sim)
    out = Ref{Int32}(0)
    check(maxdyn_sim_get_contact_slots(s, out))
    return Int(out[])
end
