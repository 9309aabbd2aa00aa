% Tests of the MATLAB/Octave binding: the double pendulum (scenario A2: two 1 kg boxes
% on 1 m links, revolute about x, starting horizontal), errors, URDF, handles, the box
% drop on ground contacts (A4), a PD loop through joint inputs, a servo tracking a
% moving target, contact/input errors,
% names and structure after the builder is freed, limits, mimics, frames and their errors,
% whole states, step_n, contact settings and diagnostics, recordings for the viewer. Run by
% run_octave_tests.sh; prints
% a closing "N passed, N failed" line and returns the number of failures.
function failed = test_maxdyn()
  passed = 0; failed = 0;
  tests = {@double_pendulum_energy_and_violation, @errors_are_raised, ...
           @urdf_double_pendulum, @handles_are_freed, @box_drop_on_ground_contacts, ...
           @pd_loop_with_joint_input, @servo_target_tracks_a_ramp, @contact_and_input_errors, ...
           @names_and_structure_after_the_builder_is_freed, @names_limits_mimics_frames_errors, ...
           @collision_shapes, @states_step_n_settings_and_diagnostics, @queries, ...
           @linearization, @lqr_cart_double_pendulum, @violated_start_is_refused_and_assembled, ...
           @recording, @whole_state_floating_base};
  for i = 1:numel(tests)
    name = func2str(tests{i});
    try
      tests{i}();
      passed = passed + 1;
      printf('ok   %s\n', name);
    catch err
      failed = failed + 1;
      printf('FAIL %s: %s\n', name, err.message);
    end
  end
  printf('%d passed, %d failed\n', passed, failed);
end

function [model, j1, j2] = double_pendulum()
  b = MaxdynBuilder();
  J = eye(3) / 600;  % Box(0.1, 0.1, 0.1, 1)
  b1 = b.addBody(1.0, J);
  b2 = b.addBody(1.0, J);
  j1 = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, b1, [0 0 0], [0 0 1], [1 0 0]);
  j2 = b.addJoint(MaxdynJoint.REVOLUTE, b1, b2, [0 0 0], [0 0 1], [1 0 0]);
  assert(b.bodyCount() == 2 && b.jointCount() == 2);
  model = MaxdynModel(b);
end

function double_pendulum_energy_and_violation()
  [model, j1, j2] = double_pendulum();
  s = MaxdynSim(model, 0.01);
  s.setJointPosition(j1, pi / 2);
  assert(abs(s.jointPosition(j1) - pi / 2) < 1e-14);
  x = s.bodyState(0);
  assert(norm(x(1:3) - [0; 1; 0]) < 1e-14, 'first body not horizontal');
  [k0, p0] = s.energy();
  worstE = 0; worstV = 0;
  for i = 1:1000
    s.step();
    [k, p] = s.energy();
    worstE = max(worstE, abs(k + p - k0 - p0));
    worstV = max(worstV, s.constraintViolation());
  end
  printf('octave double pendulum, 10 s at dt 0.01: max |E-E0| = %.4g J, max violation = %.3g\n', worstE, worstV);
  assert(worstV < 1e-9, sprintf('violation %g', worstV));
  assert(worstE < 0.5, sprintf('energy error %g', worstE));  % measured 0.378 J (Python, Rust)
  assert(abs(s.time() - 10) < 1e-9);
  assert(abs(s.jointVelocity(j2)) > 0);
end

function errors_are_raised()
  b = MaxdynBuilder();
  try
    b.addBody(-1, eye(3));
    error('negative mass accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status6'), err.identifier);  % INVALID_MASS
    assert(~isempty(strfind(err.message, 'mass')), err.message);
  end
  body = b.addBody(1, eye(3));
  try
    b.addJoint(99, MaxdynJoint.WORLD, body, [0 0 0], [0 0 1], [1 0 0]);
    error('joint type 99 accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status10'), err.identifier);  % INVALID_ENUM
  end
  try
    maxdyn_mex('builder_add_body', uint64(123456), 1, eye(3));
    error('forged handle accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:handle'), err.identifier);
  end
  m = MaxdynModel(b);
  try
    MaxdynSim(m, 0);
    error('dt = 0 accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status9'), err.identifier);  % INVALID_TIME_STEP
  end
  try
    maxdyn_mex('no_such_command');
    error('unknown command accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:command'), err.identifier);
  end
end

function urdf_double_pendulum()
  here = fileparts(mfilename('fullpath'));
  path = fullfile(here, '..', '..', 'tests', 'fixtures', 'doublependulum_cd.urdf');
  b = MaxdynBuilder.fromUrdf(path, false);
  assert(b.bodyCount() == 2 && b.jointCount() == 2);
  m = MaxdynModel(b);
  delete(b);  % the model keeps the link and joint names
  assert(strcmp(m.bodyName(0), 'link1') && m.findBody('link2') == 1 && m.findJoint('joint2') == 1);
  assert(m.jointParent(0) == MaxdynJoint.WORLD && m.bodyMass(1) == 1);
  s = MaxdynSim(m, 0.01);
  x = s.bodyState(0);
  expected = [-0.5 * sin(0.4); 1; -0.5 * cos(0.4)];
  assert(norm(x(1:3) - expected) < 1e-9);
  s.setJointPosition(0, 1.0);
  s.step(300);
  assert(s.constraintViolation() < 1e-9);
  try
    MaxdynBuilder.fromUrdf(fullfile(here, 'no_such.urdf'));
    error('missing file accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status101'), err.identifier);  % URDF
  end
end

function violated_start_is_refused_and_assembled()
  % the builder leaves the bodies at the origin: the sim places them by the joint tree
  [model, j1, j2] = double_pendulum();
  s = MaxdynSim(model, 0.01);
  [j, v] = s.jointViolation();
  assert(j == -1 && v == 0);
  x = s.bodyState(1);
  assert(abs(x(3) + 2) < 1e-15);
  x(2) = x(2) + 0.25;
  s.setBodyState(1, x);
  try
    s.step();
    error('a violated start stepped');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status205'), err.identifier);  % JOINT_VIOLATION
    assert(~isempty(strfind(err.message, 'assemble')), err.message);
  end
  assert(s.assemble() == 0.25);
  [j, v] = s.jointViolation();
  assert(v < 1e-15);
  s.step();
  x = s.bodyState(1);
  assert(max(abs(x(8:13))) < 1e-12);
end

function handles_are_freed()
  before = maxdyn_mex('live_objects');
  [model, j1] = double_pendulum();  % its builder went out of scope already
  s = MaxdynSim(model, 0.01);
  assert(maxdyn_mex('live_objects') == before + 2);
  delete(model);   % the sim shares the compiled model
  s.step(10);
  delete(s);
  assert(maxdyn_mex('live_objects') == before, 'objects leaked');
  assert(maxdyn_mex('handle_count') == before);
end

function box_drop_on_ground_contacts()
  % SCENARIOS A4: Box(0.5,0.5,0.5,1), 8 corner contacts, mu 0.3, dropped from 1 m
  b = MaxdynBuilder();
  box = b.addBody(1.0, eye(3) / 24);
  b.setBodyPose(box, [0 0 1.25], [1 0 0 0]);
  c = zeros(1, 8);
  k = 0;
  for sx = [-0.25 0.25]
    for sy = [-0.25 0.25]
      for sz = [-0.25 0.25]
        k = k + 1;
        c(k) = b.addGroundContact(box, [sx sy sz], 0, 0.3);
      end
    end
  end
  b.setContactCone(c(8), MaxdynCone.NONLINEAR, 0);
  assert(b.contactCount() == 8);
  s = MaxdynSim(MaxdynModel(b), 0.01);
  worst = 0;
  for i = 1:100
    s.step();
    for k = 1:8
      g = s.contact(c(k));
      worst = max(worst, -g(1));
    end
  end
  lowest = inf; normal = 0;
  for k = 1:8
    g = s.contact(c(k));
    lowest = min(lowest, g(1));
    normal = normal + g(2);
  end
  x = s.bodyState(box);
  st = s.stepStats();
  printf('octave box drop: penetration %.2e m, rest gap %.2e m, sum of normal forces %.9f N, %d active\n', ...
         worst, lowest, normal, st.activeContacts);
  assert(worst <= 1e-4 && abs(lowest) <= 1e-3, 'penetration or rest height');
  assert(norm(x(8:10)) < 1e-6, 'not at rest');
  assert(st.contacts == 8 && st.activeContacts == 4);
  assert(st.fallback == 0 && st.trescaRounds == 0 && st.substeps == 1, 'a resting box needs no rescue');
  o = s.options();
  assert(o.tolerance == 1e-10 && o.maxIterations == 100 && o.acceptance == 1e-8 && ...
         o.contactTolerance == 1e-8 && o.maxSplits == 5 && o.contactPredictorCorrector == 1 && ...
         o.contactMargin == 0.05, 'default solver options');
  s.setOptions(struct('maxSplits', 0, 'contactMargin', Inf));
  o = s.options();
  assert(o.maxSplits == 0 && o.contactMargin == Inf && o.maxIterations == 100, 'options round trip');
  try
    s.setOptions(struct('maxSplits', -1));
    error('max_splits = -1 accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status12'), err.identifier);  % INVALID_ARGUMENT
    assert(~isempty(strfind(err.message, 'options.max_splits')), err.message);
  end
  o = s.options();
  assert(o.maxSplits == 0, 'a rejected option changes nothing');
  assert(o.integrator == 0, 'the first-order integrator by default');
  s.setOptions(struct('integrator', 1));
  o = s.options();
  assert(o.integrator == 1, 'the second-order integrator set');
  try
    s.setOptions(struct('integrator', 3));
    error('integrator = 3 accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:status10'), err.identifier);  % INVALID_ENUM
    assert(~isempty(strfind(err.message, 'options.integrator')), err.message);
  end
  s.setOptions(struct('integrator', 0));
  assert(abs(normal - 9.81) < 1e-6, sprintf('normal force %g', normal));
end

function pd_loop_with_joint_input()
  % Box(0.1,0.1,1,1) on a revolute about x at (0,0,0.5): u = Kp (t - x) - Kd v settles
  % where Kp (t - x) = m g (l/2) sin x
  kp = 20; kd = 3; target = 1.2;
  b = MaxdynBuilder();
  body = b.addBody(1.0, diag([1.01 1.01 0.02]) / 12);
  j = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, body, [0 0 0], [0 0 0.5], [1 0 0]);
  s = MaxdynSim(MaxdynModel(b), 0.01);
  for i = 1:3000
    s.setJointInput(j, kp * (target - s.jointPosition(j)) - kd * s.jointVelocity(j));
    s.step();
  end
  pred = target;
  for i = 1:50
    pred = pred - (kp * (target - pred) - 9.81 * 0.5 * sin(pred)) / (-kp - 9.81 * 0.5 * cos(pred));
  end
  th = s.jointPosition(j);
  printf('octave PD loop: settled %.10f rad, predicted %.10f rad\n', th, pred);
  assert(target - pred > 0.1);
  assert(abs(th - pred) < 1e-6, sprintf('error %g rad', abs(th - pred)));
  assert(s.jointInput(j) ~= 0);
  [w, d] = s.energyAccount();
  assert(w ~= 0 && d == 0);
end

function servo_target_tracks_a_ramp()
  % the rod without gravity, a servo (spring 400, damper 40) whose target ramps at 0.5
  % rad/s with its rate: it leads the ramp by c W^3 dt^2 / (24 k) (tests/forces/servo.rs)
  k = 400; c = 40; w = 0.5; dt = 0.01;
  b = MaxdynBuilder();
  b.setGravity([0 0 0]);
  body = b.addBody(1.0, diag([1.01 1.01 0.02]) / 12);
  j = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, body, [0 0 0], [0 0 0.5], [1 0 0]);
  bare = b.addJoint(MaxdynJoint.REVOLUTE, body, b.addBody(1.0, eye(3) / 24), [0 0 -0.5], [0 0 0], [1 0 0]);
  b.setJointSpring(j, k, 0);
  b.setJointDamper(j, c);
  s = MaxdynSim(MaxdynModel(b), dt);
  for i = 1:300
    s.setJointTarget(j, w * (s.time() + dt), w);
    s.step();
  end
  lead = s.jointPosition(j) - w * s.time();
  expected = c * w^3 * dt^2 / (24 * k);
  printf('octave servo on a ramp: leads by %.4e rad, c W^3 dt^2/(24 k) = %.4e\n', lead, expected);
  assert(abs(lead / expected - 1) < 1e-6, sprintf('lead %g rad', lead));
  [p, v] = s.jointTarget(j);
  assert(abs(p - 1.5) < 1e-12 && v == w);
  expect_status(@() s.setJointTarget(bare, 0.1), 12);   % INVALID_ARGUMENT: no spring, no damper
  expect_status(@() s.setJointTarget(j, NaN, 0), 5);
  s.setJointTarget(j, 0.2);                             % rate 0 when omitted
  [p, v] = s.jointTarget(j);
  assert(p == 0.2 && v == 0);
  s.setJointTargets([0.4; 0], [0.1; 0]);                % every joint's; the bare one takes 0
  [p, v] = s.jointTargets();
  assert(isequal(p, [0.4; 0]) && isequal(v, [0.1; 0]));
  expect_status(@() s.setJointTargets([0.4; 0.3]), 12);
end

function contact_and_input_errors()
  b = MaxdynBuilder();
  box = b.addBody(1.0, eye(3) / 24);
  c = b.addGroundContact(box, [0 0 -0.25], 0, 0.3);
  expect_status(@() b.addGroundContact(box, [0 0 0], 0, -0.1), 12);   % INVALID_ARGUMENT friction
  expect_status(@() b.addGroundContact(box, [0 0 0], NaN, 0.1), 5);   % NON_FINITE
  expect_status(@() b.setContactCone(c + 1, MaxdynCone.LINEAR, 4), 4); % UNKNOWN_CONTACT
  expect_status(@() b.setContactCone(c, 7, 4), 10);                    % INVALID_ENUM
  expect_status(@() b.setContactCone(c, MaxdynCone.LINEAR, 3), 12);    % odd directions
  assert(b.contactCount() == 1);
  j = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, box, [0 0 0], [0 0 0.5], [1 0 0]);
  expect_status(@() b.setJointSpring(j, [1 2], [0 0]), 11);            % WRONG_LENGTH
  expect_status(@() b.setJointDamper(j, -1), 12);
  s = MaxdynSim(MaxdynModel(b), 0.01);
  expect_status(@() s.contact(1), 4);
  expect_status(@() s.setJointInput(j, NaN), 5);
  expect_status(@() s.setJointInput(j, [1 2]), 11);
  assert(s.jointInput(j) == 0);
end

function m = arm_model()
  % base (welded) -> upper (revolute shoulder) -> lower (prismatic slide) -> ball
  % (spherical wrist); the slide mimics the shoulder; frames tool and origin
  b = MaxdynBuilder();
  J = [0.3 0.01 0.02; 0.01 0.2 0.03; 0.02 0.03 0.15];
  names = {'base', 'upper', 'lower', 'ball'};
  for k = 1:4
    b.setBodyName(b.addBody(k, J), names{k});
  end
  joints = {MaxdynJoint.FIXED, MaxdynJoint.WORLD, 'weld'; MaxdynJoint.REVOLUTE, 0, 'shoulder'; ...
            MaxdynJoint.PRISMATIC, 1, 'slide'; MaxdynJoint.SPHERICAL, 2, 'wrist'};
  for k = 1:4
    j = b.addJoint(joints{k, 1}, joints{k, 2}, k - 1, [0 0 0], [0 0 0]);
    b.setJointName(j, joints{k, 3});
  end
  b.setJointLimits(1, -1, 2);
  b.setJointLimits(2, -Inf, 0.3);
  assert(b.addMimic(2, 1, 0.1, 0.05) == 0);
  assert(b.addFrame('tool', 2, [0 0 0.4 0 0 0 2]) == 0);
  assert(b.addFrame('origin', MaxdynJoint.WORLD) == 1);
  m = MaxdynModel(b);
  delete(b);
end

function names_and_structure_after_the_builder_is_freed()
  m = arm_model();
  bodies = {'base', 'upper', 'lower', 'ball'};
  joints = {'weld', 'shoulder', 'slide', 'wrist'};
  for k = 1:4
    assert(strcmp(m.bodyName(k - 1), bodies{k}) && m.findBody(bodies{k}) == k - 1);
    assert(strcmp(m.jointName(k - 1), joints{k}) && m.findJoint(joints{k}) == k - 1);
    assert(m.jointChild(k - 1) == k - 1 && m.bodyMass(k - 1) == k);
  end
  assert(isequal(arrayfun(@(j) m.jointType(j), 0:3), [MaxdynJoint.FIXED MaxdynJoint.REVOLUTE MaxdynJoint.PRISMATIC MaxdynJoint.SPHERICAL]));
  assert(isequal(arrayfun(@(j) m.jointParent(j), 0:3), [MaxdynJoint.WORLD 0 1 2]));
  assert(isequal(m.bodyInertia(3), [0.3 0.01 0.02; 0.01 0.2 0.03; 0.02 0.03 0.15]));
  assert(m.frameCount() == 2 && strcmp(m.frameName(0), 'tool') && m.findFrame('origin') == 1);
  assert(m.frameBody(0) == 2 && m.frameBody(1) == MaxdynJoint.WORLD);
  assert(isequal(m.framePose(0), [0; 0; 0.4; 0; 0; 0; 1]));  % the quaternion normalized
  assert(m.limitCount() == 2);
  [lo, hi] = m.jointLimits(2);
  assert(lo == -Inf && hi == 0.3);
  [lo, hi] = m.jointLimits(3);
  assert(isequal(lo, -Inf(3, 1)) && isequal(hi, Inf(3, 1)));
  assert(m.mimicCount() == 1 && isequal(m.mimic(0), [2 1 0.1 0.05]));
end

function names_limits_mimics_frames_errors()
  m = arm_model();
  expect_status(@() m.bodyName(4), 2);        % UNKNOWN_BODY
  expect_status(@() m.findBody('elbow'), 2);
  expect_status(@() m.findJoint('elbow'), 3);  % UNKNOWN_JOINT
  expect_status(@() m.findFrame('elbow'), 13); % UNKNOWN_FRAME
  expect_status(@() m.framePose(2), 13);
  expect_status(@() m.findBody(''), 12);       % INVALID_ARGUMENT: the empty name
  expect_status(@() m.mimic(1), 14);           % UNKNOWN_MIMIC
  expect_status(@() m.jointLimits(7), 3);
  b = MaxdynBuilder();
  body = b.addBody(1, eye(3));
  ball = b.addBody(1, eye(3));
  hinge = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, body, [0 0 0], [0 0 1]);
  sphere = b.addJoint(MaxdynJoint.SPHERICAL, body, ball, [0 0 0], [0 0 1]);
  expect_status(@() b.setJointLimits(hinge, [0 0], [1 1]), 11);   % WRONG_LENGTH
  expect_status(@() b.setJointLimits(hinge, NaN, 1), 5);          % NON_FINITE
  expect_status(@() b.setJointLimits(hinge, 2, 1), 12);           % lower > upper
  expect_status(@() b.setJointLimits(sphere, -ones(1, 3), ones(1, 3)), 12);
  expect_status(@() b.addMimic(hinge, 7), 3);
  expect_status(@() b.addMimic(hinge, hinge), 12);
  expect_status(@() b.addMimic(sphere, hinge), 12);
  expect_status(@() b.addFrame('tip', 5), 2);
  expect_status(@() b.addFrame('tip', body, zeros(1, 7)), 8);     % ZERO_AXIS
  expect_status(@() b.addFrame('', body), 12);
  m2 = MaxdynModel(b);
  assert(m2.limitCount() == 0 && m2.mimicCount() == 0 && m2.frameCount() == 0);
end

function states_step_n_settings_and_diagnostics()
  [model, j1, j2] = double_pendulum();
  a = MaxdynSim(model, 0.01);  b = MaxdynSim(model, 0.01);
  a.setJointPosition(j1, pi / 2);  b.setJointPosition(j1, pi / 2);
  a.step(250);                                      % in C
  for i = 1:250
    maxdyn_mex('sim_step', b.handle);               % one at a time
  end
  X = a.bodyStates();
  assert(isequal(size(X), [13 2]) && isequal(X, b.bodyStates()), 'step_n differs from single steps');
  assert(isequal(X(:, 2), a.bodyState(1)));
  assert(a.stepCount() == 250 && a.dt() == 0.01);
  Y = X;  Y(1, 2) = Y(1, 2) + 0.25;
  a.setBodyStates(Y);
  assert(isequal(a.bodyStates(), Y));
  expect_status(@() a.setBodyStates(Y(:, 1)), 11);  % WRONG_LENGTH: one body of two
  assert(isequal(a.constraintRank(), [10 10 0 2]), mat2str(a.constraintRank()));
  assert(a.springEnergy() == 0 && a.limitCount() == 0);
  assert(a.limitViolation() == 0 && a.mimicViolation() == 0);
  a.setContactTolerance(1e-7);  a.setContactMargin(0.2);
  assert(a.contactTolerance() == 1e-7 && a.contactMargin() == 0.2);
  o = a.options();
  assert(o.contactTolerance == 1e-7 && o.contactMargin == 0.2 && o.contactWarmStart == 1);
  a.setOptions(struct('contactWarmStart', 0));
  o = a.options();
  assert(o.contactWarmStart == 0);
  expect_status(@() a.limit(0), 12);  % INVALID_ARGUMENT: no limit 0
end

function expect_status(f, status)
  try
    f();
  catch err
    assert(strcmp(err.identifier, sprintf('maxdyn:status%d', status)), err.identifier);
    return;
  end
  error('call accepted; expected status %d', status);
end

% --- collision shapes (issue 12)
function collision_shapes()
  b = MaxdynBuilder();
  body = b.addBody(1, eye(3) / 600);
  ground = b.addShape(MaxdynJoint.WORLD, MaxdynBuilder.SHAPE_PLANE);
  box = b.addShape(body, MaxdynBuilder.SHAPE_BOX, [0.1 0.2 0.3]);
  ball = b.addShape(body, MaxdynBuilder.SHAPE_SPHERE, 0.05, [0 0 0.25 1 0 0 0]);
  assert(ground == 0 && box == 1 && ball == 2 && b.shapeCount() == 3);
  b.setShapeFriction(box, 0.3);
  b.setCollisionFilter(ball, 2, 4294967294);
  b.excludeShapePair(ground, ball);
  b.setCollisionCone(MaxdynCone.NONLINEAR, 0);
  b.setJointedBodiesCollide(true);
  expect_status(@() b.addShape(body, 9, 0.1), 10);                          % INVALID_ENUM
  expect_status(@() b.addShape(body, MaxdynBuilder.SHAPE_SPHERE, -0.1), 15); % INVALID_SHAPE
  expect_status(@() b.addShape(body, MaxdynBuilder.SHAPE_BOX, [0.1 0.1]), 15);
  expect_status(@() b.addShape(body, MaxdynBuilder.SHAPE_SPHERE, 0.1, [0 0 0 1 1 0 0]), 15);
  expect_status(@() b.addShape(body, MaxdynBuilder.SHAPE_SPHERE, NaN), 5);   % NON_FINITE
  expect_status(@() b.addShape(3, MaxdynBuilder.SHAPE_SPHERE, 0.1), 2);      % UNKNOWN_BODY
  expect_status(@() b.setShapeFriction(3, 0.1), 16);                         % UNKNOWN_SHAPE
  assert(b.shapeCount() == 3);
  m = MaxdynModel(b);
  assert(m.shapeCount() == 3);
  [type, on, pose, params] = m.shape(box);
  assert(type == MaxdynBuilder.SHAPE_BOX && on == body && isequal(params, [0.1; 0.2; 0.3]) && isequal(pose, [0; 0; 0; 1; 0; 0; 0]));
  [type, on, pose, params] = m.shape(ball);
  assert(type == MaxdynBuilder.SHAPE_SPHERE && pose(3) == 0.25 && isequal(params, 0.05));
  [type, on] = m.shape(ground);
  assert(type == MaxdynBuilder.SHAPE_PLANE && on == MaxdynJoint.WORLD);
  [mu, group, mask] = m.shapeSurface(box);
  assert(mu == 0.3 && group == 1 && mask == 4294967295);
  [mu, group, mask] = m.shapeSurface(ball);
  assert(mu == 1 && group == 2 && mask == 4294967294);
  expect_status(@() m.shape(3), 16);
  % a convex hull: a 0.2 m cube's corners and an interior point, dropped on the ground
  hb = MaxdynBuilder();
  cube = hb.addBody(1, eye(3) / 150);
  hb.setBodyPose(cube, [0 0 0.3], [1 0 0 0]);
  hb.addShape(MaxdynJoint.WORLD, MaxdynBuilder.SHAPE_PLANE);
  [sx, sy, sz] = ndgrid([-0.1 0.1]);
  hull = hb.addHullShape(cube, [sx(:) sy(:) sz(:); 0 0 0]);
  expect_status(@() hb.addHullShape(cube, [0 0 0; 1 0 0; 0 1 0]), 15);   % too few points
  expect_status(@() hb.addHullShape(cube, [sx(:) sy(:) sz(:)] * NaN), 5); % NON_FINITE
  assert(hb.shapeCount() == 2);
  hm = MaxdynModel(hb);
  assert(hm.shape(hull) == MaxdynBuilder.SHAPE_HULL);
  hs = MaxdynSim(hm, 0.01);
  for k = 1:150
    hs.step();
  end
  x = hs.bodyState(cube);
  printf('octave hull drop: rests at z = %.12f m (half height 0.1)\n', x(3));
  assert(abs(x(3) - 0.1) < 1e-6 && norm(x(8:10)) < 1e-6, 'hull rest height');
  here = fileparts(mfilename('fullpath'));
  a1 = fullfile(here, '..', '..', 'tests', 'fixtures', 'a1_unitree_ros.urdf');
  [robot, warnings] = MaxdynBuilder.fromUrdfWith(a1, 'floating', 1, 'collision', 1, 'ground_plane', 1);
  assert(robot.shapeCount() == 23);   % 10 boxes, 8 cylinders, 4 foot spheres, the ground
  assert(numel(strfind(warnings, 'is not simulated')) == 12);   % joint friction, one per joint
  plain = MaxdynBuilder.fromUrdfWith(a1, 'floating', 1);
  assert(plain.shapeCount() == 0);
  % an SRDF (text, or file) excludes its pairs; an unknown link is a warning; bounds
  % raise a link's moments (issue 25 items 4 and 7)
  srdf = '<robot name="a1"><disable_collisions link1="FL_calf" link2="FR_calf"/><disable_collisions link1="FL_calf" link2="tool"/></robot>';
  selfish = MaxdynModel(MaxdynBuilder.fromUrdfWith(a1, 'floating', 1, 'collision', 1, 'self_collision', 1));
  [robot, warnings] = MaxdynBuilder.fromUrdfWith(a1, 'floating', 1, 'collision', 1, 'self_collision', 1, 'srdf', srdf);
  assert(~isempty(strfind(warnings, 'not in the model, ignored: `tool` (line 1)')));
  srdf_file = [tempname() '.srdf'];
  fid = fopen(srdf_file, 'w'); fprintf(fid, '%s', srdf); fclose(fid);
  from_file = MaxdynModel(MaxdynBuilder.fromUrdfWith(a1, 'floating', 1, 'collision', 1, 'self_collision', 1, 'srdf_path', srdf_file));
  delete(srdf_file);
  m = MaxdynModel(robot);
  pairs = [0 0 0];   % shape pairs that may collide: without, with the SRDF text, with the file
  for a = 0:m.shapeCount() - 1
    for c = a + 1:m.shapeCount() - 1
      pairs = pairs + [selfish.shapesMayCollide(a, c), m.shapesMayCollide(a, c), from_file.shapesMayCollide(a, c)];
    end
  end
  assert(pairs(1) > pairs(2) && pairs(2) == pairs(3));
  expect_status(@() MaxdynBuilder.fromUrdfWith(a1, 'bound_inertia', -1), 12);
  % a world-fixed link's mesh as a triangle mesh: a ball rests inside the cup (z = 0.1 + r),
  % on its hull's top (0.35 + r) without the option
  cup = fullfile(here, '..', '..', 'tests', 'fixtures', 'open_box.urdf');
  for as_trimesh = [1 0]
    cb = MaxdynBuilder.fromUrdfWith(cup, 'collision', 1, 'world_meshes_as_trimesh', as_trimesh);
    rest = 0.15 + 0.25 * (1 - as_trimesh);
    ball = cb.addBody(1, 1e-3 * eye(3));
    cb.setBodyPose(ball, [0.23 0.01 rest + 0.02], [1 0 0 0]);
    cb.addShape(ball, MaxdynBuilder.SHAPE_SPHERE, 0.05, [0 0 0 1 0 0 0]);
    cs = MaxdynSim(MaxdynModel(cb), 0.01);
    cs.step(200);
    x = cs.bodyState(ball);
    assert(abs(x(3) - rest) < 1e-12);
  end
  [bounded, warnings] = MaxdynBuilder.fromUrdfWith(a1, 'floating', 1, 'bound_mass', 10);
  assert(numel(strfind(warnings, '(bound_mass)')) == 18);   % its 18 links with an <inertial>, all under 10 kg
  % a box of 2 kg resting on the ground: four points at its lower corners carry m g
  b = MaxdynBuilder();
  h = [0.2 0.1 0.05];
  crate = b.addBody(2, diag(2 * [h(2)^2 + h(3)^2, h(1)^2 + h(3)^2, h(1)^2 + h(2)^2] / 3));
  b.setBodyPose(crate, [0 0 0.05], [1 0 0 0]);
  b.addShape(crate, MaxdynBuilder.SHAPE_BOX, h);
  b.addShape(MaxdynJoint.WORLD, MaxdynBuilder.SHAPE_PLANE);
  s = MaxdynSim(MaxdynModel(b), 0.01);
  assert(isempty(s.shapeContacts()));
  s.step(20);
  C = s.shapeContacts();
  assert(isequal(size(C), [16 4]) && all(C(3, :) == crate) && all(C(4, :) == -1));
  assert(abs(sum(C(12, :)) - 2 * 9.81) < 1e-9 && all(abs(C(7, :)) < 1e-9));
end

function queries()
  % issue 13 from Octave: restore and copy replay bit for bit; M qdd + b = tau; Jacobian
  % and derivative shapes
  [model, j1, j2] = double_pendulum();
  s = MaxdynSim(model, 0.01);
  s.setJointPosition(j1, 0.4);
  s.setJointInput(j2, 0.1);
  saved = s.state();
  twin = s.copy();
  s.step(100);
  first = s.bodyStates();
  s.setState(saved);
  s.step(100);
  twin.step(100);
  assert(isequal(s.bodyStates(), first) && isequal(twin.bodyStates(), first), 'replay differs');
  J = s.pointJacobian(1, [0 0 -1], 0, 0);
  assert(isequal(size(J), [6 2]));
  assert(isequal(size(s.pointJacobian(0, [0 0 0], 0, 1)), [6 12]));
  M = s.massMatrix();
  qd = [0.3; -0.2];  qdd = [1.0; 0.5];
  tau = s.inverseDynamics(qd, qdd);
  assert(isequal(size(M), [2 2]) && norm(M - M') < 1e-14);
  assert(norm(M * qdd + s.biasForces(qd) - tau) < 1e-12, 'M qdd + b = tau');
  B = s.inputDerivative(0);
  assert(isequal(size(B), [4 2]));
  expect_status(@() s.setState(saved(1:end-1)), 11);   % WRONG_LENGTH
end


function whole_state_floating_base()
  % issue 26 from Octave: the A1 loaded floating has nq 19, nv 18, nu 12; q, v and u set
  % and read in one call each (q back to 1e-12); the trunk's frame where q puts it; a
  % non-unit quaternion (INVALID_ARGUMENT) and a wrong length (WRONG_LENGTH) change nothing;
  % linearize('minimal') is 36 x 36 and 36 x 12
  here = fileparts(mfilename('fullpath'));
  b = MaxdynBuilder.fromUrdf(fullfile(here, '..', '..', 'tests', 'fixtures', 'a1_unitree_ros.urdf'), true);
  m = MaxdynModel(b);
  [nq, nv, nu] = m.dimensions();
  assert(isequal([nq, nv, nu], [19, 18, 12]));
  s = MaxdynSim(m, 0.01);
  [sq, sv, su] = s.dimensions();
  assert(isequal([sq, sv, su], [19, 18, 12]));
  turn = [cos(0.2); 0; sin(0.2); 0];
  q = [0.1; -0.2; 0.5; turn; 0.3 * sin((1:12)')];
  v = 0.2 * cos((1:18)');
  s.setConfiguration(q);
  s.setGeneralizedVelocity(v);
  s.setJointInputs(linspace(-1, 1, 12));
  assert(max(abs(s.configuration() - q)) < 1e-12, 'q read back');
  assert(max(abs(s.generalizedVelocity() - v)) < 1e-9, 'v read back');
  assert(isequal(s.jointInputs(), linspace(-1, 1, 12)'));
  p = s.framePose(m.findFrame('trunk'));
  assert(max(abs(p - q(1:7))) < 1e-12, 'the base frame is where q puts it');
  saved = s.state();
  bad = q;  bad(4) = 2;
  expect_status(@() s.setConfiguration(bad), 12);       % INVALID_ARGUMENT: not unit
  expect_status(@() s.setConfiguration(q(1:18)), 11);   % WRONG_LENGTH
  expect_status(@() s.setGeneralizedVelocity([v; 0]), 11);
  expect_status(@() s.setJointInputs(NaN(12, 1)), 5);   % NON_FINITE
  assert(isequal(s.state(), saved), 'a refused call changed the sim');
  [A, B] = s.linearize('minimal');
  assert(isequal(size(A), [36 36]) && isequal(size(B), [36 12]));
  assert(isequal(size(s.massMatrix()), [18 18]));
end

function linearization()
  % issue 13: [A, B] = s.linearize(coords) of one step, the sim not advanced
  [model, j1, j2] = double_pendulum();
  s = MaxdynSim(model, 0.01);
  s.setJointPosition(j1, 0.4);
  s.setJointInput(j2, 0.1);
  s.step(3);
  before = s.state();
  [A, B] = s.linearize('minimal');
  assert(isequal(size(A), [4 4]) && isequal(size(B), [4 2]));
  [A0, B0] = s.linearize(0);
  assert(isequal(A0, A) && isequal(B0, B));
  assert(isequal(s.linearize('minimal'), A));   % one output: A alone (B not computed)
  [nx, nu] = s.stateDimensions('maximal');
  assert(nx == 26 && nu == 12);
  [Am, Bm] = s.linearize('maximal');
  assert(isequal(size(Am), [26 26]) && isequal(size(Bm), [26 12]));
  assert(isequal(s.state(), before), 'linearize advanced the sim');
  % B is the analytic input derivative (also checks the row-major to column-major copy)
  Bi = s.inputDerivative(0);
  assert(max(abs(B(:) - Bi(:))) <= 1e-5 * max(abs(Bi(:))), 'B vs inputDerivative');
  % central differences with a larger step agree (measured in Python: 2.4e-8 relative)
  [Ad, Bd] = s.linearizeDifferences('minimal', 1e-4);
  assert(max(abs(Ad(:) - A(:))) <= 1e-5 * max(abs(A(:))));
  assert(max(abs(Bd(:) - B(:))) <= 1e-5 * max(abs(B(:))));
  expect_status(@() s.linearize(7), 10);                        % INVALID_ENUM
  expect_status(@() s.linearizeDifferences('minimal', -1), 12); % INVALID_ARGUMENT
  try
    s.linearize('reduced');
    error('coords ''reduced'' accepted');
  catch err
    assert(strcmp(err.identifier, 'maxdyn:coords'), err.identifier);
  end
  here = fileparts(mfilename('fullpath'));
  fb = MaxdynBuilder.fromUrdf(fullfile(here, '..', '..', 'tests', 'fixtures', 'fourbar_cd_loopjoint.urdf'));
  loop = MaxdynSim(MaxdynModel(fb), 0.01);
  expect_status(@() loop.linearize('minimal'), 12);             % a kinematic loop
  assert(isequal(s.state(), before));
end

function lqr_cart_double_pendulum()
  % the LQR of examples_c/lqr_double_pendulum.c from Octave: a cart (1 kg, prismatic along
  % y, driven) with two 0.5 kg, 0.6 m rods upright on revolute joints about x (not
  % driven), dt 0.01; 0.05 rad push; the C example's bars (tests/lqr.rs)
  len = 0.6;  w = 0.05;
  rod = diag([0.5 * (len^2 + w^2) / 12, 0.5 * (len^2 + w^2) / 12, 0.5 * 2 * w^2 / 12]);
  b = MaxdynBuilder();
  cart = b.addBody(1.0, 0.1 * eye(3));
  r1 = b.addBody(0.5, rod);
  r2 = b.addBody(0.5, rod);
  b.setBodyPose(r1, [0 0 len / 2], [1 0 0 0]);
  b.setBodyPose(r2, [0 0 1.5 * len], [1 0 0 0]);
  j = [b.addJoint(MaxdynJoint.PRISMATIC, MaxdynJoint.WORLD, cart, [0 0 0], [0 0 0], [0 1 0]), ...
       b.addJoint(MaxdynJoint.REVOLUTE, cart, r1, [0 0 0], [0 0 -len / 2], [1 0 0]), ...
       b.addJoint(MaxdynJoint.REVOLUTE, r1, r2, [0 0 len / 2], [0 0 -len / 2], [1 0 0])];
  s = MaxdynSim(MaxdynModel(b), 0.01);
  [A, B] = s.linearize('minimal');
  B = B(:, 1);  % the cart force only
  Q = diag([1 100 100 1 1 1]);  R = 0.01;
  P = Q;
  for it = 1:100000   % the discrete Riccati equation, iterated
    K = (R + B' * P * B) \ (B' * P * A);
    Pn = Q + A' * P * (A - B * K);
    Pn = (Pn + Pn') / 2;
    done = max(abs(Pn(:) - P(:))) <= 1e-10 * max(abs(Pn(:)));
    P = Pn;
    if done, break; end
  end
  K = (R + B' * P * B) \ (B' * P * A);
  assert(max(abs(eig(A - B * K))) < 0.999, 'closed loop unstable');
  state = @() [arrayfun(@(k) s.jointPosition(k), j), arrayfun(@(k) s.jointVelocity(k), j)]';
  s.setJointPosition(j(2), 0.05);
  worst = 0;
  for k = 1:1000
    s.setJointInput(j(1), -K * state());
    s.step();
    x = state();
    worst = max([worst, abs(x(2)), abs(x(2) + x(3))]);
  end
  final = [2.319497e-4; -9.185919e-6; 3.214476e-7; -1.859028e-4; -1.812768e-6; -4.752437e-7];
  printf('octave LQR: %d Riccati iterations, worst tilt %.6e rad, final state %s\n', it, worst, mat2str(x', 6));
  assert(abs(worst - 6.613299e-2) <= 1e-6, 'worst tilt');
  assert(all(abs(x - final) <= 1e-7 + 4e-4 * abs(final)), 'final state');
end


function recording()
  % issue 26: a recording for the viewer from Octave: the model once, a frame per
  % addFrame (the time, every body's pose), read back as JSON; another model's sim and a
  % path that cannot be created raise status 12 (INVALID_ARGUMENT); nothing is leaked
  live = maxdyn_mex('live_objects');
  [model, j1, j2] = double_pendulum();
  s = MaxdynSim(model, 0.01);
  s.setJointPosition(j1, 0.5);
  path = [tempname() '.json'];
  r = s.record(path);
  r.addFrame();
  s.step(10);
  r.addFrame(s);
  r.record(20, 4);                          % 5 more frames
  assert(r.frameCount == 7);
  other = MaxdynSim(double_pendulum(), 0.01);
  expect_status(@() r.addFrame(other), 12);
  r.close();
  r.close();                                % idempotent
  data = jsondecode(fileread(path));
  delete(path);
  assert(numel(data.bodies) == 2, 'two bodies');
  t = arrayfun(@(f) f.t, data.frames);
  assert(max(abs(t(:)' - [0 0.1 0.14 0.18 0.22 0.26 0.3])) < 1e-9, 'frame times');
  x = data.frames(end).x;
  bs = s.bodyStates();
  assert(numel(x) == 6 && abs(x(3) - bs(3, 1)) < 1e-12, 'the last frame is the sim now');
  expect_status(@() MaxdynRecorder(s, '/no-such-dir/x.json'), 12);
  path2 = [tempname() '.json'];
  unclosed = s.record(path2);               % closed when deleted
  clear r unclosed other s model
  assert(maxdyn_mex('live_objects') == live, 'objects leaked');
  data = jsondecode(fileread(path2));       % a finished file, without frames
  delete(path2);
  assert(isempty(data.frames), 'no frames');
end
