% Double-pendulum test of the MATLAB/Octave binding (scenario A2: two 1 kg boxes on
% 1 m links, revolute about x, starting horizontal). Run by run_octave_tests.sh; prints
% a closing "N passed, N failed" line and returns the number of failures.
function failed = test_maxdyn()
  passed = 0; failed = 0;
  tests = {@double_pendulum_energy_and_violation, @errors_are_raised, ...
           @urdf_double_pendulum, @handles_are_freed};
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
  path = fullfile(here, '..', '..', 'tests', 'models', 'doublependulum_cd.urdf');
  b = MaxdynBuilder.fromUrdf(path, false);
  assert(b.bodyCount() == 2 && b.jointCount() == 2);
  m = MaxdynModel(b);
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
