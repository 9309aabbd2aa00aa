classdef MaxdynHandle < handle
  % Owner of one library object (builder, model, sim or recorder): frees it exactly once, when
  % the MATLAB/Octave object is deleted.
  properties (SetAccess = protected)
    handle  % uint64 registry handle of the MEX gateway
  end
  methods
    function delete(obj)
      if ~isempty(obj.handle)
        maxdyn_mex('free', obj.handle);
        obj.handle = [];
      end
    end
  end
end
