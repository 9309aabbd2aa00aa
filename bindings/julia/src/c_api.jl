# Part of module MaxDyn (included by MaxDyn.jl): every C function the binding calls,
# declared once with its argument and return types, in the header's order
# (include/maxdyn.h; library.jl's `@cfunc` makes each a Julia function of the same name).
# Handles are Ptr{Cvoid} (a Builder, Model, Sim, Batch or Recorder converts itself);
# callbacks are Ptr{Cvoid} from `@cfunction`; `const char *` inputs are Cstring.
# tests/julia_signatures.rs checks each line against the header, that each is called,
# that no deprecated alias is, and that Python's package calls nothing Julia cannot.

@cfunc maxdyn_status_string(code::Int32)::Cstring
@cfunc maxdyn_last_error_message()::Cstring
@cfunc maxdyn_version()::Cstring
@cfunc maxdyn_builder_new(out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_builder_free(builder::Ptr{Cvoid})::Cvoid
@cfunc maxdyn_builder_set_gravity(builder::Ptr{Cvoid}, gravity::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_get_gravity(builder::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_add_body(builder::Ptr{Cvoid}, mass::Cdouble, inertia::Ptr{Cdouble},
        out_body::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_body_pose(builder::Ptr{Cvoid}, body::Int32, x::Ptr{Cdouble}, q::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_set_body_velocity(builder::Ptr{Cvoid}, body::Int32, v::Ptr{Cdouble},
        omega::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_add_joint(builder::Ptr{Cvoid}, joint_type::Int32, parent::Int32, child::Int32,
        p_parent::Ptr{Cdouble}, p_child::Ptr{Cdouble}, axis::Ptr{Cdouble}, out_joint::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_universal_joint(builder::Ptr{Cvoid}, parent::Int32, child::Int32,
        p_parent::Ptr{Cdouble}, p_child::Ptr{Cdouble}, axis_parent::Ptr{Cdouble}, axis_child::Ptr{Cdouble},
        out_joint::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_joint_offset(builder::Ptr{Cvoid}, joint::Int32, q::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_get_body_count(builder::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_builder_get_joint_count(builder::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_body_name(builder::Ptr{Cvoid}, body::Int32, name::Cstring)::Int32
@cfunc maxdyn_builder_set_joint_name(builder::Ptr{Cvoid}, joint::Int32, name::Cstring)::Int32
@cfunc maxdyn_builder_find_body(builder::Ptr{Cvoid}, name::Cstring, out_body::Ptr{Int32})::Int32
@cfunc maxdyn_builder_find_joint(builder::Ptr{Cvoid}, name::Cstring, out_joint::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_joint_limits(builder::Ptr{Cvoid}, joint::Int32, lower::Ptr{Cdouble},
        upper::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_builder_add_mimic(builder::Ptr{Cvoid}, follower::Int32, leader::Int32, multiplier::Cdouble,
        offset::Cdouble, out_mimic::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_frame(builder::Ptr{Cvoid}, name::Cstring, body::Int32, pose::Ptr{Cdouble},
        out_frame::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_base_frame(builder::Ptr{Cvoid}, body::Int32, pose::Ptr{Cdouble})::Int32
@cfunc maxdyn_builder_set_joint_spring(builder::Ptr{Cvoid}, joint::Int32, stiffness::Ptr{Cdouble},
        rest::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_builder_set_joint_damper(builder::Ptr{Cvoid}, joint::Int32, damping::Ptr{Cdouble},
        n::Csize_t)::Int32
@cfunc maxdyn_builder_add_spring(builder::Ptr{Cvoid}, body_a::Int32, pa::Ptr{Cdouble}, body_b::Int32,
        pb::Ptr{Cdouble}, stiffness::Cdouble, damping::Cdouble, rest_length::Cdouble,
        out_spring::Ptr{Int32})::Int32
@cfunc maxdyn_builder_get_spring_count(builder::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_plane_contact(builder::Ptr{Cvoid}, body::Int32, p::Ptr{Cdouble}, radius::Cdouble,
        normal::Ptr{Cdouble}, offset::Cdouble, friction::Cdouble, out_contact::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_ground_contact(builder::Ptr{Cvoid}, body::Int32, p::Ptr{Cdouble}, radius::Cdouble,
        friction::Cdouble, out_contact::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_sphere_contact(builder::Ptr{Cvoid}, body_a::Int32, pa::Ptr{Cdouble}, ra::Cdouble,
        body_b::Int32, pb::Ptr{Cdouble}, rb::Cdouble, friction::Cdouble, out_contact::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_contact_cone(builder::Ptr{Cvoid}, contact::Int32, cone_type::Int32,
        directions::Int32)::Int32
@cfunc maxdyn_builder_get_contact_cone(builder::Ptr{Cvoid}, contact::Int32, cone_type::Ptr{Int32},
        directions::Ptr{Int32})::Int32
@cfunc maxdyn_builder_get_contact_count(builder::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_shape(builder::Ptr{Cvoid}, body::Int32, shape_type::Int32, pose::Ptr{Cdouble},
        params::Ptr{Cdouble}, n::Csize_t, out_shape::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_hull_shape(builder::Ptr{Cvoid}, body::Int32, pose::Ptr{Cdouble},
        points::Ptr{Cdouble}, n_points::Csize_t, out_shape::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_heightfield_shape(builder::Ptr{Cvoid}, body::Int32, pose::Ptr{Cdouble},
        heights::Ptr{Cdouble}, rows::Csize_t, cols::Csize_t, dx::Cdouble, dy::Cdouble, out_shape::Ptr{Int32})::Int32
@cfunc maxdyn_builder_add_trimesh_shape(builder::Ptr{Cvoid}, body::Int32, pose::Ptr{Cdouble},
        vertices::Ptr{Cdouble}, n_vertices::Csize_t, triangles::Ptr{Int32}, n_triangles::Csize_t,
        out_shape::Ptr{Int32})::Int32
@cfunc maxdyn_builder_set_shape_friction(builder::Ptr{Cvoid}, shape::Int32, mu::Cdouble)::Int32
@cfunc maxdyn_builder_set_collision_filter(builder::Ptr{Cvoid}, shape::Int32, group::UInt32,
        mask::UInt32)::Int32
@cfunc maxdyn_builder_exclude_shape_pair(builder::Ptr{Cvoid}, shape_a::Int32, shape_b::Int32)::Int32
@cfunc maxdyn_builder_set_collision_cone(builder::Ptr{Cvoid}, cone_type::Int32, directions::Int32)::Int32
@cfunc maxdyn_builder_set_contact_capacity(builder::Ptr{Cvoid}, slots::Int32)::Int32
@cfunc maxdyn_builder_set_jointed_bodies_collide(builder::Ptr{Cvoid}, collide::Int32)::Int32
@cfunc maxdyn_builder_get_shape_count(builder::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_urdf_options_default()::UrdfOptions
@cfunc maxdyn_builder_from_urdf(path::Cstring, floating::Int32, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_builder_from_urdf_string(xml::Cstring, floating::Int32, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_builder_from_urdf_with(path::Cstring, options::Ptr{UrdfOptions}, out::Ptr{Ptr{Cvoid}},
        warnings::Ptr{UInt8}, warnings_capacity::Csize_t, warnings_length::Ptr{Csize_t})::Int32
@cfunc maxdyn_builder_from_urdf_string_with(xml::Cstring, options::Ptr{UrdfOptions}, out::Ptr{Ptr{Cvoid}},
        warnings::Ptr{UInt8}, warnings_capacity::Csize_t, warnings_length::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_new(builder::Ptr{Cvoid}, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_model_free(model::Ptr{Cvoid})::Cvoid
@cfunc maxdyn_model_get_body_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_dof(model::Ptr{Cvoid}, joint::Int32, out_dof::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_loop_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_contact_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_body_name(model::Ptr{Cvoid}, body::Int32, name::Ptr{UInt8}, name_size::Csize_t,
        out_length::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_get_joint_name(model::Ptr{Cvoid}, joint::Int32, name::Ptr{UInt8}, name_size::Csize_t,
        out_length::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_get_frame_name(model::Ptr{Cvoid}, frame::Int32, name::Ptr{UInt8}, name_size::Csize_t,
        out_length::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_find_body(model::Ptr{Cvoid}, name::Cstring, out_body::Ptr{Int32})::Int32
@cfunc maxdyn_model_find_joint(model::Ptr{Cvoid}, name::Cstring, out_joint::Ptr{Int32})::Int32
@cfunc maxdyn_model_find_frame(model::Ptr{Cvoid}, name::Cstring, out_frame::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_type(model::Ptr{Cvoid}, joint::Int32, out_type::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_parent(model::Ptr{Cvoid}, joint::Int32, out_parent::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_child(model::Ptr{Cvoid}, joint::Int32, out_child::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_body_mass(model::Ptr{Cvoid}, body::Int32, out_mass::Ptr{Cdouble})::Int32
@cfunc maxdyn_model_get_body_inertia(model::Ptr{Cvoid}, body::Int32, out_inertia::Ptr{Cdouble})::Int32
@cfunc maxdyn_model_get_dimensions(model::Ptr{Cvoid}, nq::Ptr{Csize_t}, nv::Ptr{Csize_t},
        nu::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_get_frame_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_frame_body(model::Ptr{Cvoid}, frame::Int32, out_body::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_frame_pose(model::Ptr{Cvoid}, frame::Int32, out_pose::Ptr{Cdouble})::Int32
@cfunc maxdyn_model_get_shape_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_shape(model::Ptr{Cvoid}, shape::Int32, out_type::Ptr{Int32}, out_body::Ptr{Int32},
        out_pose::Ptr{Cdouble}, out_params::Ptr{Cdouble}, out_n_params::Ptr{Csize_t})::Int32
@cfunc maxdyn_model_get_shape_friction(model::Ptr{Cvoid}, shape::Int32, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_model_get_collision_filter(model::Ptr{Cvoid}, shape::Int32, out_group::Ptr{UInt32},
        out_mask::Ptr{UInt32})::Int32
@cfunc maxdyn_model_get_shapes_may_collide(model::Ptr{Cvoid}, shape_a::Int32, shape_b::Int32,
        out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_collision_cone(model::Ptr{Cvoid}, cone_type::Ptr{Int32},
        directions::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_contact_capacity(model::Ptr{Cvoid}, out_slots::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_limit_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_joint_limits(model::Ptr{Cvoid}, joint::Int32, lower::Ptr{Cdouble},
        upper::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_model_get_mimic_count(model::Ptr{Cvoid}, out::Ptr{Int32})::Int32
@cfunc maxdyn_model_get_mimic(model::Ptr{Cvoid}, mimic::Int32, out_follower::Ptr{Int32},
        out_leader::Ptr{Int32}, out_multiplier::Ptr{Cdouble}, out_offset::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_new(model::Ptr{Cvoid}, dt::Cdouble, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_sim_free(sim::Ptr{Cvoid})::Cvoid
@cfunc maxdyn_sim_set_control_callback(sim::Ptr{Cvoid}, callback::Ptr{Cvoid}, user_data::Ptr{Cvoid})::Int32
@cfunc maxdyn_sim_step(sim::Ptr{Cvoid})::Int32
@cfunc maxdyn_sim_step_n(sim::Ptr{Cvoid}, steps::Int32)::Int32
@cfunc maxdyn_solver_options_default()::SolverOptions
@cfunc maxdyn_sim_set_options(sim::Ptr{Cvoid}, options::Ptr{SolverOptions})::Int32
@cfunc maxdyn_sim_get_options(sim::Ptr{Cvoid}, out::Ptr{SolverOptions})::Int32
@cfunc maxdyn_sim_set_contact_tolerance(sim::Ptr{Cvoid}, tolerance::Cdouble)::Int32
@cfunc maxdyn_sim_get_contact_tolerance(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_set_contact_margin(sim::Ptr{Cvoid}, margin::Cdouble)::Int32
@cfunc maxdyn_sim_get_contact_margin(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_time(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_step_count(sim::Ptr{Cvoid}, out::Ptr{UInt64})::Int32
@cfunc maxdyn_sim_get_dt(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_body_state(sim::Ptr{Cvoid}, body::Int32, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_set_body_state(sim::Ptr{Cvoid}, body::Int32, state::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_body_states(sim::Ptr{Cvoid}, out::Ptr{Cdouble}, n_bodies::Csize_t)::Int32
@cfunc maxdyn_sim_set_body_states(sim::Ptr{Cvoid}, states::Ptr{Cdouble}, n_bodies::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_position(sim::Ptr{Cvoid}, joint::Int32, values::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_velocity(sim::Ptr{Cvoid}, joint::Int32, values::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_joint_position(sim::Ptr{Cvoid}, joint::Int32, values::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_joint_velocity(sim::Ptr{Cvoid}, joint::Int32, values::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_dimensions(sim::Ptr{Cvoid}, nq::Ptr{Csize_t}, nv::Ptr{Csize_t}, nu::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_get_configuration(sim::Ptr{Cvoid}, q::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_configuration(sim::Ptr{Cvoid}, q::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_generalized_velocity(sim::Ptr{Cvoid}, v::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_generalized_velocity(sim::Ptr{Cvoid}, v::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_inputs(sim::Ptr{Cvoid}, u::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_joint_inputs(sim::Ptr{Cvoid}, u::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_targets(sim::Ptr{Cvoid}, position::Ptr{Cdouble}, velocity::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_joint_targets(sim::Ptr{Cvoid}, position::Ptr{Cdouble}, velocity::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_assemble(sim::Ptr{Cvoid}, out_violation::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_joint_violation(sim::Ptr{Cvoid}, out_joint::Ptr{Int32},
        out_violation::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_state_size(sim::Ptr{Cvoid}, n::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_get_state(sim::Ptr{Cvoid}, out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_state(sim::Ptr{Cvoid}, state::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_copy(sim::Ptr{Cvoid}, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_model_velocity_count(model::Ptr{Cvoid}, coords::Int32, out::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_velocity_count(sim::Ptr{Cvoid}, coords::Int32, out::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_get_frame_pose(sim::Ptr{Cvoid}, frame::Int32, out_pose::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_frame_velocity(sim::Ptr{Cvoid}, frame::Int32, axes::Int32,
        out_twist::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_frame_jacobian(sim::Ptr{Cvoid}, frame::Int32, axes::Int32, coords::Int32,
        out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_point_pose(sim::Ptr{Cvoid}, body::Int32, point::Ptr{Cdouble},
        out_pose::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_point_velocity(sim::Ptr{Cvoid}, body::Int32, point::Ptr{Cdouble}, axes::Int32,
        out_twist::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_point_jacobian(sim::Ptr{Cvoid}, body::Int32, point::Ptr{Cdouble}, axes::Int32,
        coords::Int32, out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_mass_matrix(sim::Ptr{Cvoid}, out::Ptr{Cdouble}, n_out::Csize_t)::Int32
@cfunc maxdyn_sim_get_bias_forces(sim::Ptr{Cvoid}, qd::Ptr{Cdouble}, out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_inverse_dynamics(sim::Ptr{Cvoid}, qd::Ptr{Cdouble}, qdd::Ptr{Cdouble}, out::Ptr{Cdouble},
        n::Csize_t)::Int32
@cfunc maxdyn_sim_get_minimal_velocities(sim::Ptr{Cvoid}, out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_model_state_size(model::Ptr{Cvoid}, coords::Int32, nx::Ptr{Csize_t}, nu::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_state_dimensions(sim::Ptr{Cvoid}, coords::Int32, nx::Ptr{Csize_t}, nu::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_input_derivative(sim::Ptr{Cvoid}, coords::Int32, out::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_linearize(sim::Ptr{Cvoid}, coords::Int32, a::Ptr{Cdouble}, b::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_linearize_differences(sim::Ptr{Cvoid}, coords::Int32, h::Cdouble, a::Ptr{Cdouble},
        b::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_set_body_force(sim::Ptr{Cvoid}, body::Int32, force::Ptr{Cdouble},
        torque::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_set_joint_input(sim::Ptr{Cvoid}, joint::Int32, u::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_input(sim::Ptr{Cvoid}, joint::Int32, u::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_joint_target(sim::Ptr{Cvoid}, joint::Int32, position::Ptr{Cdouble}, velocity::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_get_joint_target(sim::Ptr{Cvoid}, joint::Int32, position::Ptr{Cdouble}, velocity::Ptr{Cdouble}, n::Csize_t)::Int32
@cfunc maxdyn_sim_set_body_wrench(sim::Ptr{Cvoid}, body::Int32, force::Ptr{Cdouble}, torque::Ptr{Cdouble},
        point::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_clear_inputs(sim::Ptr{Cvoid})::Int32
@cfunc maxdyn_sim_get_contact(sim::Ptr{Cvoid}, contact::Int32, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_shape_contact_count(sim::Ptr{Cvoid}, out_count::Ptr{Int32})::Int32
@cfunc maxdyn_sim_get_contact_slots(sim::Ptr{Cvoid}, out_slots::Ptr{Int32})::Int32
@cfunc maxdyn_sim_get_shape_contacts(sim::Ptr{Cvoid}, out_contacts::Ptr{ShapeContact}, capacity::Csize_t,
        written::Ptr{Csize_t})::Int32
@cfunc maxdyn_sim_get_limit_count(sim::Ptr{Cvoid}, out_count::Ptr{Int32})::Int32
@cfunc maxdyn_sim_get_limit(sim::Ptr{Cvoid}, limit::Int32, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_limit_violation(sim::Ptr{Cvoid}, out_violation::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_mimic_violation(sim::Ptr{Cvoid}, out_violation::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_energy(sim::Ptr{Cvoid}, kinetic::Ptr{Cdouble}, potential::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_spring_energy(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_energy_account(sim::Ptr{Cvoid}, input_work::Ptr{Cdouble},
        dissipation::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_reset_energy_account(sim::Ptr{Cvoid})::Int32
@cfunc maxdyn_sim_get_constraint_violation(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_constraint_rank(sim::Ptr{Cvoid}, rows::Ptr{Int32}, rank::Ptr{Int32},
        redundant::Ptr{Int32}, dof::Ptr{Int32})::Int32
@cfunc maxdyn_debug_live_objects()::Csize_t
@cfunc maxdyn_sim_get_deepest_penetration(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_resolved_penetration(sim::Ptr{Cvoid}, out::Ptr{Cdouble})::Int32
@cfunc maxdyn_sim_get_step_stats_sized(sim::Ptr{Cvoid}, out::Ptr{StepStats}, out_size::Csize_t)::Int32
@cfunc maxdyn_sim_record_open(sim::Ptr{Cvoid}, path::Cstring, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_recorder_add_frame(recorder::Ptr{Cvoid}, sim::Ptr{Cvoid})::Int32
@cfunc maxdyn_recorder_close(recorder::Ptr{Cvoid})::Int32
@cfunc maxdyn_batch_new(model::Ptr{Cvoid}, n_sims::Csize_t, dt::Cdouble, n_threads::Csize_t,
        out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_batch_free(batch::Ptr{Cvoid})::Cvoid
@cfunc maxdyn_batch_get_size(batch::Ptr{Cvoid}, out::Ptr{Csize_t})::Int32
@cfunc maxdyn_batch_get_thread_count(batch::Ptr{Cvoid}, out::Ptr{Csize_t})::Int32
@cfunc maxdyn_batch_get_sim(batch::Ptr{Cvoid}, index::Csize_t, out::Ptr{Ptr{Cvoid}})::Int32
@cfunc maxdyn_batch_step(batch::Ptr{Cvoid}, steps::Csize_t, control::Ptr{Cvoid}, user_data::Ptr{Cvoid},
        statuses::Ptr{Int32}, n_statuses::Csize_t)::Int32
@cfunc maxdyn_batch_get_status(batch::Ptr{Cvoid}, index::Csize_t, out::Ptr{Int32})::Int32
@cfunc maxdyn_batch_clear_failure(batch::Ptr{Cvoid}, index::Csize_t)::Int32
@cfunc maxdyn_batch_get_body_states(batch::Ptr{Cvoid}, out::Ptr{Cdouble}, n::Csize_t)::Int32
