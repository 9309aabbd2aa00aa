# Tests of the Julia binding (not run in the project's CI: Julia is not installable
# there; tests/julia_signatures.rs checks every C declaration against the header, every
# call's arity, the structs and Python's surface, and parses these files instead).
# Expected numbers are analytic or were measured through the Python package on the same
# library (Jacobians and mass matrix to 1e-15, batch and replays bit-identical).
# Run with:  MAXDYN_LIBRARY=/path/to/libmaxdyn.so julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
using Test
using MaxDyn

const ROOT = normpath(joinpath(@__DIR__, "..", "..", ".."))
const BOX = [1/600 0 0; 0 1/600 0; 0 0 1/600]   # Box(0.1, 0.1, 0.1, 1)

"Scenario A2: two 1 kg boxes on 1 m links, revolute about x."
function double_pendulum()
    b = Builder()
    b1 = add_body!(b, 1.0, BOX)
    b2 = add_body!(b, 1.0, BOX)
    j1 = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, b1, [0, 0, 0], [0, 0, 1], [1, 0, 0])
    j2 = add_joint!(b, MaxDyn.REVOLUTE, b1, b2, [0, 0, 0], [0, 0, 1], [1, 0, 0])
    @test (body_count(b), joint_count(b)) == (2, 2)
    m = Model(b)
    close(b)
    return m, j1, j2
end

@testset "double pendulum: energy and constraint violation" begin
    m, j1, j2 = double_pendulum()
    s = Sim(m, 0.01)
    close(m)   # the sim shares the compiled model
    set_joint_position!(s, j1, [pi / 2])
    @test joint_position(s, j1)[1] ≈ pi / 2 atol = 1e-14
    @test body_state(s, 0)[1:3] ≈ [0, 1, 0] atol = 1e-14
    @test size(body_states(s)) == (13, 2)
    k0, p0 = energy(s)
    worst_e = 0.0
    worst_v = 0.0
    for _ in 1:1000
        step!(s)
        k, p = energy(s)
        worst_e = max(worst_e, abs(k + p - k0 - p0))
        worst_v = max(worst_v, constraint_violation(s))
    end
    println("julia double pendulum, 10 s at dt 0.01: max |E-E0| = $worst_e J, max violation = $worst_v")
    @test worst_v < 1e-9
    @test worst_e < 0.5        # measured 0.378 J through the Python and Octave bindings
    @test sim_time(s) ≈ 10.0 atol = 1e-9
end

@testset "errors throw MaxDynError with the library message" begin
    b = Builder()
    err = try add_body!(b, -1.0, BOX); nothing catch e; e end
    @test err isa MaxDynError && err.status == 6 && occursin("mass", err.message)   # INVALID_MASS
    body = add_body!(b, 1.0, BOX)
    err = try add_joint!(b, 99, MaxDyn.WORLD, body, [0, 0, 0], [0, 0, 1]); nothing catch e; e end
    @test err isa MaxDynError && err.status == 10                                    # INVALID_ENUM
    m = Model(b)
    err = try Sim(m, 0.0); nothing catch e; e end
    @test err isa MaxDynError && err.status == 9                                     # INVALID_TIME_STEP
    close(b); close(m)
    @test_throws ArgumentError add_body!(b, 1.0, BOX)                                # closed
end

@testset "URDF" begin
    b = builder_from_urdf(joinpath(ROOT, "tests", "fixtures", "doublependulum_cd.urdf"))
    @test (body_count(b), joint_count(b)) == (2, 2)
    s = Sim(Model(b), 0.01)
    @test body_state(s, 0)[1:3] ≈ [-0.5 * sin(0.4), 1.0, -0.5 * cos(0.4)] atol = 1e-9
    set_joint_position!(s, 0, [1.0])
    step!(s, 300)
    @test constraint_violation(s) < 1e-9
    err = try builder_from_urdf(joinpath(ROOT, "no_such.urdf")); nothing catch e; e end
    @test err isa MaxDynError && err.status == 101                                   # URDF
end

@testset "objects are freed" begin
    GC.gc()
    before = MaxDyn.live_objects()
    m, _, _ = double_pendulum()
    s = Sim(m, 0.01)
    @test MaxDyn.live_objects() == before + 2
    close(s); close(m)
    @test MaxDyn.live_objects() == before
end

@testset "box drop on ground contacts (SCENARIOS A4)" begin
    b = Builder()
    box = add_body!(b, 1.0, [1/24 0 0; 0 1/24 0; 0 0 1/24])   # Box(0.5, 0.5, 0.5, 1)
    set_body_pose!(b, box, [0, 0, 1.25], [1, 0, 0, 0])
    cs = [add_ground_contact!(b, box, [sx, sy, sz], 0.0, 0.3) for sx in (-0.25, 0.25), sy in (-0.25, 0.25), sz in (-0.25, 0.25)]
    @test contact_count(b) == 8
    set_contact_cone!(b, cs[end], MaxDyn.CONE_NONLINEAR, 0)
    err = try set_contact_cone!(b, cs[1], 7, 4); nothing catch e; e end
    @test err isa MaxDynError && err.status == 10                                    # INVALID_ENUM
    err = try set_contact_cone!(b, 8, MaxDyn.CONE_LINEAR, 4); nothing catch e; e end
    @test err isa MaxDynError && err.status == 4                                     # UNKNOWN_CONTACT
    s = Sim(Model(b), 0.01)
    worst = 0.0
    for _ in 1:100
        step!(s)
        worst = max(worst, maximum(-contact(s, c)[1] for c in cs))
    end
    @test worst <= 1e-4
    @test abs(minimum(contact(s, c)[1] for c in cs)) <= 1e-3
    @test sum(contact(s, c)[2] for c in cs) ≈ 9.81 atol = 1e-6
end

@testset "PD loop through joint inputs" begin
    kp, kd, target = 20.0, 3.0, 1.2
    b = Builder()
    body = add_body!(b, 1.0, [1.01/12 0 0; 0 1.01/12 0; 0 0 0.02/12])             # Box(0.1, 0.1, 1, 1)
    j = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, body, [0, 0, 0], [0, 0, 0.5], [1, 0, 0])
    s = Sim(Model(b), 0.01)
    for _ in 1:3000
        set_joint_input!(s, j, [kp * (target - joint_position(s, j)[1]) - kd * joint_velocity(s, j)[1]])
        step!(s)
    end
    pred = target
    for _ in 1:50
        pred -= (kp * (target - pred) - 9.81 * 0.5 * sin(pred)) / (-kp - 9.81 * 0.5 * cos(pred))
    end
    @test abs(joint_position(s, j)[1] - pred) < 1e-6
    @test energy_account(s)[1] != 0.0
    err = try set_joint_input!(s, j, [NaN]); nothing catch e; e end
    @test err isa MaxDynError && err.status == 5                                     # NON_FINITE
end

@testset "servo target on a ramp" begin
    # a servo (spring 400, damper 40) whose target ramps at 0.5 rad/s with its rate leads
    # the ramp by c Ω³ dt²/(24 k) (tests/forces/servo.rs)
    k, c, w, dt = 400.0, 40.0, 0.5, 0.01
    b = Builder()
    set_gravity!(b, [0, 0, 0])
    body = add_body!(b, 1.0, [1.01/12 0 0; 0 1.01/12 0; 0 0 0.02/12])
    j = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, body, [0, 0, 0], [0, 0, 0.5], [1, 0, 0])
    set_joint_spring!(b, j, [k], [0.0])
    set_joint_damper!(b, j, [c])
    s = Sim(Model(b), dt)
    for _ in 1:300
        set_joint_target!(s, j, [w * (sim_time(s) + dt)], [w])
        step!(s)
    end
    lead = joint_position(s, j)[1] - w * sim_time(s)
    @test abs(lead / (c * w^3 * dt^2 / (24k)) - 1) < 1e-6
    p, v = joint_target(s, j)
    @test p ≈ [w * sim_time(s)] && v == [w]
    err = try set_joint_target!(s, j, [NaN]); nothing catch e; e end
    @test err isa MaxDynError && err.status == 5                                     # NON_FINITE
    set_joint_targets!(s, [0.4], [0.1])
    @test joint_targets(s) == ([0.4], [0.1])
end

@testset "names and structure after the builder is freed; limits, mimics, frames" begin
    J = [0.3 0.01 0.02; 0.01 0.2 0.03; 0.02 0.03 0.15]
    b = Builder()
    for (k, name) in enumerate(("base", "upper", "lower", "ball"))
        set_body_name!(b, add_body!(b, k, J), name)
    end
    for (kind, parent, child, name) in ((MaxDyn.FIXED, MaxDyn.WORLD, 0, "weld"), (MaxDyn.REVOLUTE, 0, 1, "shoulder"),
                                        (MaxDyn.PRISMATIC, 1, 2, "slide"), (MaxDyn.SPHERICAL, 2, 3, "wrist"))
        set_joint_name!(b, add_joint!(b, kind, parent, child, [0, 0, 0], [0, 0, 0]), name)
    end
    set_joint_limits!(b, 1, [-1.0], [2.0])
    set_joint_limits!(b, 2, [-Inf], [0.3])
    @test add_mimic!(b, 2, 1, 0.1, 0.05) == 0
    @test add_frame!(b, "tool", 2, [0, 0, 0.4, 0, 0, 0, 2]) == 0
    @test add_frame!(b, "origin", MaxDyn.WORLD) == 1
    err = try add_frame!(b, "tip", 0, zeros(7)); nothing catch e; e end
    @test err isa MaxDynError && err.status == 8                                     # ZERO_AXIS
    err = try add_mimic!(b, 1, 1); nothing catch e; e end
    @test err isa MaxDynError && err.status == 12                                    # INVALID_ARGUMENT
    m = Model(b)
    close(b)
    @test [body_name(m, k) for k in 0:3] == ["base", "upper", "lower", "ball"]
    @test [joint_name(m, k) for k in 0:3] == ["weld", "shoulder", "slide", "wrist"]
    @test (find_body(m, "lower"), find_joint(m, "wrist"), find_frame(m, "origin")) == (2, 3, 1)
    @test [joint_type(m, j) for j in 0:3] == [MaxDyn.FIXED, MaxDyn.REVOLUTE, MaxDyn.PRISMATIC, MaxDyn.SPHERICAL]
    @test [joint_parent(m, j) for j in 0:3] == [MaxDyn.WORLD, 0, 1, 2]
    @test [joint_child(m, j) for j in 0:3] == [0, 1, 2, 3]
    @test body_mass(m, 3) == 4.0 && body_inertia(m, 3) == J
    @test (frame_count(m), frame_name(m, 0), frame_body(m, 1)) == (2, "tool", MaxDyn.WORLD)
    @test frame_pose(m, 0) == [0, 0, 0.4, 0, 0, 0, 1]
    @test limit_count(m) == 2 && joint_limits(m, 2) == ([-Inf], [0.3])
    @test (mimic_count(m), mimic(m, 0)) == (1, (2, 1, 0.1, 0.05))
    for (f, status) in ((() -> find_frame(m, "elbow"), 13), (() -> body_name(m, 4), 2), (() -> mimic(m, 1), 14))
        err = try f(); nothing catch e; e end
        @test err isa MaxDynError && err.status == status
    end
end

# --- collision shapes (issue 12)
@testset "collision shapes and URDF collision" begin
    b = Builder()
    body = add_body!(b, 1.0, [1/600 0 0; 0 1/600 0; 0 0 1/600])
    ground = add_shape!(b, MaxDyn.WORLD, MaxDyn.SHAPE_PLANE)
    box = add_shape!(b, body, MaxDyn.SHAPE_BOX, [0.1, 0.2, 0.3])
    ball = add_shape!(b, body, MaxDyn.SHAPE_SPHERE, [0.05], [0, 0, 0.25, 1, 0, 0, 0])
    @test (ground, box, ball, shape_count(b)) == (0, 1, 2, 3)
    set_shape_friction!(b, box, 0.3)
    set_collision_filter!(b, ball, 2, 0xfffffffe)
    exclude_shape_pair!(b, ground, ball)
    set_collision_cone!(b, MaxDyn.CONE_NONLINEAR, 0)
    set_jointed_bodies_collide!(b, true)
    for (f, status) in ((() -> add_shape!(b, body, 9, [0.1]), 10),                  # INVALID_ENUM
                        (() -> add_shape!(b, body, MaxDyn.SHAPE_SPHERE, [-0.1]), 15), # INVALID_SHAPE
                        (() -> add_shape!(b, body, MaxDyn.SHAPE_BOX, [0.1, 0.1]), 15),
                        (() -> add_shape!(b, body, MaxDyn.SHAPE_SPHERE, [NaN]), 5),   # NON_FINITE
                        (() -> add_shape!(b, 3, MaxDyn.SHAPE_SPHERE, [0.1]), 2),      # UNKNOWN_BODY
                        (() -> set_shape_friction!(b, 3, 0.1), 16))                   # UNKNOWN_SHAPE
        err = try f(); nothing catch e; e end
        @test err isa MaxDynError && err.status == status
    end
    m = Model(b)
    @test shape_count(m) == 3
    @test shape(m, box) == (MaxDyn.SHAPE_BOX, body, [0, 0, 0, 1, 0, 0, 0], [0.1, 0.2, 0.3])
    @test shape(m, ground)[1:2] == (MaxDyn.SHAPE_PLANE, MaxDyn.WORLD)
    @test (shape_friction(m, box), collision_filter(m, ball)) == (0.3, (0x00000002, 0xfffffffe))
    a1 = joinpath(@__DIR__, "..", "..", "tests", "fixtures", "a1_unitree_ros.urdf")
    robot, warnings = builder_from_urdf_with(a1; floating=true, collision=true, ground_plane=true)
    @test shape_count(robot) == 23 && length(warnings) == 12   # 10 boxes, 8 cylinders, 4 feet, the ground
    # a world-fixed link's mesh as a triangle mesh (the cup's inside), a hull without the option
    cup = joinpath(@__DIR__, "..", "..", "tests", "fixtures", "open_box.urdf")
    for (as_trimesh, kind) in ((true, MaxDyn.SHAPE_TRIMESH), (false, MaxDyn.SHAPE_HULL))
        env, _ = builder_from_urdf_with(cup; collision=true, world_meshes_as_trimesh=as_trimesh)
        @test shape(Model(env), 0)[1:2] == (kind, MaxDyn.WORLD)
    end
end

@testset "linearization of one step (issue 13)" begin
    m, j1, j2 = double_pendulum()
    s = Sim(m, 0.01)
    set_joint_position!(s, j1, [0.4])
    set_joint_input!(s, j2, [0.1])
    step!(s, 3)
    before = body_states(s)
    A, B = linearize(s, :minimal)
    @test size(A) == (4, 4) && size(B) == (4, 2)
    @test state_dimensions(s, :maximal) == (26, 12)
    Am, Bm = linearize(s, MaxDyn.COORDS_MAXIMAL)
    @test size(Am) == (26, 26) && size(Bm) == (26, 12)
    @test body_states(s) == before   # the sim is not advanced
    Ad, Bd = linearize_differences(s, :minimal, 1e-4)
    @test maximum(abs.(Ad - A)) <= 1e-5 * maximum(abs.(A))
    @test maximum(abs.(Bd - B)) <= 1e-5 * maximum(abs.(B))
    # the positions after one step depend on the velocities by dt: row-major read right
    @test A[1, 3] ≈ 0.01 rtol = 0.1
    @test_throws ArgumentError linearize(s, :reduced)
    err = try linearize(s, 7); nothing catch e; e end
    @test err isa MaxDynError && err.status == 10   # INVALID_ENUM
end

@testset "whole-state vectors: the A1 floating" begin
    b = builder_from_urdf(joinpath(ROOT, "tests", "fixtures", "a1_unitree_ros.urdf"); floating=true)
    m = Model(b)
    close(b)
    @test dimensions(m) == (19, 18, 12)
    s = Sim(m, 0.01)
    @test dimensions(s) == (19, 18, 12)
    q = vcat([0.1, -0.2, 0.5, cos(0.2), 0, sin(0.2), 0], 0.3 .* sin.(1:12))
    set_configuration!(s, q)
    @test maximum(abs.(configuration(s) .- q)) < 1e-12
    v = 0.2 .* cos.(1:18)
    set_generalized_velocity!(s, v)
    @test maximum(abs.(generalized_velocity(s) .- v)) < 1e-9
    set_joint_inputs!(s, collect(range(-1, 1, length=12)))
    @test joint_inputs(s) == collect(range(-1, 1, length=12))
    bad = copy(q); bad[4] = 2.0
    @test_throws MaxDynError set_configuration!(s, bad)
    @test_throws MaxDynError set_configuration!(s, q[1:18])
    A, B = linearize(s, :minimal)
    @test size(A) == (36, 36) && size(B) == (36, 12)
end

# --- the library located at load time (library.jl)
@testset "libmaxdyn found at load time" begin
    @test isfile(MaxDyn.library_path())
    @test MaxDyn.version() isa String && !isempty(MaxDyn.version())
    withenv("MAXDYN_LIBRARY" => "/no/such/libmaxdyn.so") do
        @test MaxDyn.library_candidates() == [("\$MAXDYN_LIBRARY", "/no/such/libmaxdyn.so")]
        err = try MaxDyn.load_library(); nothing catch e; e end
        @test err isa ErrorException && occursin("/no/such/libmaxdyn.so", err.msg)
    end
    withenv("MAXDYN_LIBRARY" => nothing, "MAXDYN_LIB" => nothing) do
        wheres = first.(MaxDyn.library_candidates())
        @test "the system library path" in wheres && "the checkout" in wheres
    end
    # every declared C function was resolved from the library
    @test all(n -> getfield(MaxDyn, Symbol("ptr_", n))[] != C_NULL, MaxDyn.C_FUNCTIONS)
    @test length(MaxDyn.C_FUNCTIONS) >= 160
end

"The double pendulum at q = (0.4, -0.3) with a frame 0.5 m beyond the second body's centre."
function posed_pendulum()
    b = Builder()
    b1 = add_body!(b, 1.0, BOX)
    b2 = add_body!(b, 1.0, BOX)
    j1 = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, b1, [0, 0, 0], [0, 0, 1], [1, 0, 0])
    j2 = add_joint!(b, MaxDyn.REVOLUTE, b1, b2, [0, 0, 0], [0, 0, 1], [1, 0, 0])
    tip = add_frame!(b, "tip", b2, [0, 0, -0.5, 1, 0, 0, 0])
    m = Model(b)
    s = Sim(m, 0.01)
    set_joint_position!(s, j1, [0.4])
    set_joint_position!(s, j2, [-0.3])
    return m, s, (b1, b2), (j1, j2), tip
end

@testset "Jacobians, mass matrix, bias forces, inverse dynamics (column-major from C's rows)" begin
    m, s, (b1, b2), (j1, j2), tip = posed_pendulum()
    q1, q12, I = 0.4, 0.1, 1 / 600            # q12 = q1 + q2
    # both links 1 m, centres of mass 1 m below their joints, joint 2 at body 1's centre
    M = mass_matrix(s)
    @test M isa Matrix{Float64} && size(M) == (2, 2)
    @test M ≈ [2I+3+2cos(-0.3) I+1+cos(-0.3); I+1+cos(-0.3) I+1] atol = 1e-12
    J = point_jacobian(s, b2)
    @test size(J) == (6, 2)
    # rows vy, vz of body 2's centre (y = sin q1 + sin q12, z = -cos q1 - cos q12), ωx
    @test J[2:3, :] ≈ [cos(q1)+cos(q12) cos(q12); sin(q1)+sin(q12) sin(q12)] atol = 1e-12
    @test J[4, :] == [1.0, 1.0] && J[[1, 5, 6], :] == zeros(3, 2)
    Jf = frame_jacobian(s, tip)                # the frame is 1.5 m from joint 2 along link 2
    @test Jf[2:3, :] ≈ [cos(q1)+1.5cos(q12) 1.5cos(q12); sin(q1)+1.5sin(q12) 1.5sin(q12)] atol = 1e-12
    @test frame_pose(s, tip)[2:3] ≈ [sin(q1) + 1.5sin(q12), -cos(q1) - 1.5cos(q12)] atol = 1e-12
    @test size(frame_jacobian(s, tip, :local, :maximal)) == (6, 12)
    @test velocity_count(s) == 2 && velocity_count(m, :maximal) == 12
    @test bias_forces(s, [0, 0]) ≈ 9.81 .* [2sin(q1) + sin(q12), sin(q12)] atol = 1e-12
    qd, qdd = [0.3, -0.2], [1.0, 2.0]
    @test inverse_dynamics(s, qd, qdd) ≈ M * qdd + bias_forces(s, qd) atol = 1e-12
    @test_throws ArgumentError bias_forces(s, [0.0])                               # nv numbers
    @test_throws ArgumentError frame_jacobian(s, tip, :sideways)
    err = try frame_pose(s, 5); nothing catch e; e end
    @test err isa MaxDynError && err.status == 13                                  # UNKNOWN_FRAME
    @test length(minimal_velocities(s)) == 2
    @test point_pose(s, b2)[2:3] ≈ [sin(q1) + sin(q12), -cos(q1) - cos(q12)] atol = 1e-12
    @test length(frame_velocity(s, tip)) == 6 && length(point_velocity(s, b2, [0, 0, 0], :local)) == 6
    @test size(input_derivative(s)) == (4, 2) && state_dimensions(m, :minimal) == (4, 2)
end

@testset "the A1 floating: 18 × 18 mass matrix, 6 × 18 foot Jacobian" begin
    b = builder_from_urdf(joinpath(ROOT, "tests", "fixtures", "a1_unitree_ros.urdf"); floating=true)
    m = Model(b)
    s = Sim(m, 0.005)
    M = mass_matrix(s)
    @test size(M) == (18, 18) && maximum(abs.(M - M')) < 1e-12
    @test M[1, 1] ≈ 13.741 atol = 1e-9           # the robot's mass, along the base's x
    @test size(frame_jacobian(s, find_frame(m, "FR_foot"))) == (6, 18)
    @test dof(m) == 12 && length(body_names(m)) == body_count(m) == 13
end

@testset "exact state, copy, step count, clock, body states at once" begin
    m, s, _, (j1, _), _ = posed_pendulum()
    set_joint_velocity!(s, j1, [0.5])
    saved = exact_state(s)
    step!(s, 20)
    after = body_states(s)
    set_exact_state!(s, saved)
    @test step_count(s) == 0
    step!(s, 20)
    @test body_states(s) == after                 # replays bit for bit
    twin = copy(s)
    step!(s, 10); step!(twin, 10)
    @test body_states(twin) == body_states(s)
    @test (time_step(s), step_count(s)) == (0.01, 30)
    err = try set_exact_state!(s, saved[1:end-1]); nothing catch e; e end
    @test err isa MaxDynError && err.status == 11                                  # WRONG_LENGTH
    x = body_states(s)
    set_body_states!(twin, x)
    @test body_states(twin) == x
    @test_throws ArgumentError set_body_states!(twin, x[:, 1:1])
    clear_inputs!(s)
    @test joint_inputs(s) == [0.0, 0.0]
end

@testset "control callback: a PD loop inside the step, exceptions out of it" begin
    kp, kd, target = 20.0, 3.0, 1.2
    b = Builder()
    body = add_body!(b, 1.0, [1.01/12 0 0; 0 1.01/12 0; 0 0 0.02/12])
    j = add_joint!(b, MaxDyn.REVOLUTE, MaxDyn.WORLD, body, [0, 0, 0], [0, 0, 0.5], [1, 0, 0])
    m = Model(b)
    by_hand, called = Sim(m, 0.01), Sim(m, 0.01)
    pd(s) = set_joint_input!(s, j, [kp * (target - joint_position(s, j)[1]) - kd * joint_velocity(s, j)[1]])
    for _ in 1:300
        pd(by_hand)
        step!(by_hand)
    end
    set_control_callback!(called, pd)
    step!(called, 300)
    @test body_states(called) == body_states(by_hand)    # the same inputs before each step
    set_control_callback!(called, s -> error("stop"))
    err = try step!(called, 5); nothing catch e; e end
    @test err isa ErrorException && err.msg == "stop"
    @test step_count(called) == 300                       # the aborted step changed nothing
    set_control_callback!(called, nothing)
    step!(called)
    @test step_count(called) == 301
end

@testset "solver options, step stats, diagnostics" begin
    _, s, _, _, _ = posed_pendulum()
    d = SolverOptions()
    @test (d.tolerance, d.max_iterations, d.acceptance, d.max_splits) == (1e-10, 100, 1e-8, 5)
    @test options(s) == d
    set_options!(s; tolerance=1e-12, max_iterations=50)
    @test (options(s).tolerance, options(s).max_iterations) == (1e-12, 50)
    err = try set_options!(s, SolverOptions(tolerance=-1.0)); nothing catch e; e end
    @test err isa MaxDynError && err.status == 12 && occursin("tolerance", err.message)
    @test options(s).tolerance == 1e-12                   # refused whole: nothing changed
    @test_throws ArgumentError SolverOptions(tolerence=1.0)
    set_contact_margin!(s, Inf)
    @test contact_margin(s) == Inf && options(s).contact_margin == Inf
    set_contact_tolerance!(s, 1e-9)
    @test contact_tolerance(s) == 1e-9
    step!(s)
    st = step_stats(s)
    @test st isa StepStats && st.iterations >= 1 && st.residual < 1e-12 && st.contacts == 0
    @test constraint_rank(s) == (10, 10, 0, 2)            # two revolute joints, 5 rows each
    @test (limit_count(s), limit_violation(s), mimic_violation(s), spring_energy(s)) == (0, 0.0, 0.0, 0.0)
    @test contact_slots(s) == 0 && deepest_penetration(s) == 0.0
end

@testset "Batch: bit-identical to serial sims; Julia control on one thread" begin
    m, j1, _ = double_pendulum()
    batch = Batch(m, 3, 0.01; threads=2)
    @test length(batch) == 3 && thread_count(batch) == 2
    for (i, s) in enumerate(batch)
        set_joint_position!(s, j1, [0.1i])
    end
    @test step!(batch, 50) == [0, 0, 0] && statuses(batch) == [0, 0, 0]
    X = body_states(batch)
    @test size(X) == (13, 2, 3)
    serial = Sim(m, 0.01)
    set_joint_position!(serial, j1, [0.2])
    step!(serial, 50)
    @test X[:, :, 2] == body_states(serial)
    @test_throws ArgumentError step!(batch, 1; control=(i, s) -> nothing)   # 2 threads
    one = Batch(m, 2, 0.01; threads=1)
    seen = Int[]
    step!(one, 3; control=(i, s) -> (push!(seen, i); set_joint_input!(s, j1, [0.5i])))
    @test sort(seen) == [1, 1, 1, 2, 2, 2] && joint_input(one[2], j1) == [1.0]
    @test_throws ErrorException step!(one, 1; control=(i, s) -> error("no"))
    @test statuses(one) == [201, 201]                     # CALLBACK_ABORTED
    clear_failure!(one, 1)
    @test statuses(one) == [0, 201]
    close(batch)
    @test_throws ArgumentError body_state(batch[1], 0)    # closed with its batch
end

@testset "recordings for the viewer" begin
    m, j1, _ = double_pendulum()
    s = Sim(m, 0.01)
    set_joint_position!(s, j1, [1.0])
    path = tempname() * ".json"
    rec = Recorder(s, path)
    record!(rec, 100; every=10)
    @test rec.frame_count == 11
    close(rec)
    close(rec)                                            # once
    @test isfile(path) && startswith(read(path, String), "{")
    err = try Recorder(s, "/no/such/dir/run.json"); nothing catch e; e end
    @test err isa MaxDynError && err.status == 12         # INVALID_ARGUMENT
    rm(path)
end

@testset "builder extras, URDF text and options" begin
    b = Builder()
    @test gravity(b) == [0, 0, -9.81]
    p = add_body!(b, 1.0, BOX)
    c = add_body!(b, 1.0, BOX)
    add_joint!(b, MaxDyn.FIXED, MaxDyn.WORLD, p, [0, 0, 0], [0, 0, 0])
    @test add_universal_joint!(b, p, c, [0, 0, 0], [0, 0, 0.5], [1, 0, 0], [0, 1, 0]) == 1
    k = add_ground_contact!(b, c, [0, 0, 0], 0.0, 0.5)
    set_contact_cone!(b, k, MaxDyn.CONE_LINEAR, 8)
    @test contact_cone(b, k) == (MaxDyn.CONE_LINEAR, 8)
    add_spring!(b, MaxDyn.WORLD, [0, 0, 1], c, [0, 0, 0], 10.0)
    @test spring_count(b) == 1
    set_contact_capacity!(b, 80)
    add_shape!(b, c, MaxDyn.SHAPE_SPHERE, [0.1])
    m = Model(b)
    @test joint_dof(m, 1) == 2 && contact_capacity(m) == 80
    xml = read(joinpath(ROOT, "tests", "fixtures", "doublependulum_cd.urdf"), String)
    @test body_count(builder_from_urdf_string(xml)) == 2
    robot, warnings = builder_from_urdf_string_with(xml; joint_limits=false)
    @test body_count(robot) == 2 && warnings isa Vector
    @test_throws ArgumentError builder_from_urdf_string_with(xml; flying=true)
end
