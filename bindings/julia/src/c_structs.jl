# Part of module MaxDyn (included by MaxDyn.jl before c_api.jl): the C structs of
# include/maxdyn.h, field for field in the header's order and types (Julia lays out an
# isbits struct as C does). tests/julia_signatures.rs checks the fields against the
# header; C only ever adds fields at the end, and a struct that the library reads whole
# must have them all.

"""maxdyn.h `maxdyn_urdf_options`: read by `builder_from_urdf_with` (start from
`maxdyn_urdf_options_default()`)."""
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
    mesh_roots::Ptr{UInt8}
    world_meshes_as_trimesh::Int32
end

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

"""maxdyn.h `maxdyn_step_stats`, what the last step did (`step_stats`): Newton
`iterations`, final `residual`, `stalled` (1: accepted below the acceptance level),
`line_search_halvings`, `contacts` and `active_contacts` in the solve, the interior
point's `complementarity`, `fallback` (1: a rescue solve took over), `substeps`,
`tresca_rounds`, `cold_restarts`, `relaxed` (1: the convex relaxation of Coulomb
friction's solution)."""
struct StepStats
    iterations::Int32
    residual::Float64
    stalled::Int32
    line_search_halvings::Int32
    contacts::Int32
    active_contacts::Int32
    complementarity::Float64
    fallback::Int32
    substeps::Int32
    tresca_rounds::Int32
    cold_restarts::Int32
    relaxed::Int32
end

"""maxdyn.h `maxdyn_solver_options`, every solver option of a sim: `tolerance`,
`max_iterations`, `acceptance` (Newton), `contact_tolerance`, `max_splits`,
`contact_predictor_corrector` (1 or 0), `contact_margin` (m), `contact_warm_start` (1 or
0), `joint_tolerance` (`Inf`: step from any configuration), `integrator`
(`INTEGRATOR_FIRST_ORDER`, the default, `INTEGRATOR_SECOND_ORDER` or
`INTEGRATOR_FOURTH_ORDER`: the velocities set are those at the current time). `SolverOptions(; fields...)`
is the library's defaults with the named fields changed; `options(sim)` reads a sim's and
`set_options!` sets them."""
struct SolverOptions
    tolerance::Float64
    max_iterations::Int32
    acceptance::Float64
    contact_tolerance::Float64
    max_splits::Int32
    contact_predictor_corrector::Int32
    contact_margin::Float64
    contact_warm_start::Int32
    joint_tolerance::Float64
    integrator::Int32
end
