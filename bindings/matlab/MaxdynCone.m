classdef MaxdynCone
  % Friction cone types (maxdyn.h MAXDYN_CONE_*) for MaxdynBuilder.setContactCone.
  properties (Constant)
    LINEAR = 0      % linearized cone, an even number of directions (default 4)
    NONLINEAR = 1   % second-order (isotropic) cone
  end
end
