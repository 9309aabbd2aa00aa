classdef MaxdynModel < MaxdynHandle
  % A compiled mechanism (wraps maxdyn_model). The builder may be deleted afterwards;
  % sims keep the model alive inside the library.
  methods
    function obj = MaxdynModel(builder)
      obj.handle = maxdyn_mex('model_new', builder.handle);
    end
    function n = bodyCount(obj)
      n = maxdyn_mex('model_body_count', obj.handle);
    end
    function n = jointCount(obj)
      n = maxdyn_mex('model_joint_count', obj.handle);
    end
    function n = jointDof(obj, joint)
      n = maxdyn_mex('model_joint_dof', obj.handle, joint);
    end
  end
end
