classdef MaxdynRecorder < MaxdynHandle
  % A recording of a sim for the viewer (wraps maxdyn_sim_record_open and
  % maxdyn_recorder_*): the model once, then a frame (time, every body's pose, the last
  % step's contact forces) per addFrame. close() finishes the file; a recorder deleted
  % unclosed is closed then.
  %   r = s.record('run.json'); r.record(500, 5); r.close();
  properties (SetAccess = private)
    sim         % the MaxdynSim the recording was opened with
    frameCount  % frames added so far
  end
  methods
    function obj = MaxdynRecorder(sim, path)
      obj.handle = maxdyn_mex('sim_record_open', sim.handle, path);
      obj.sim = sim;
      obj.frameCount = 0;
    end
    function addFrame(obj, sim)
      % a frame of sim (default: the recorded sim; any sim of the same model)
      if nargin < 2
        sim = obj.sim;
      end
      maxdyn_mex('recorder_add_frame', obj.handle, sim.handle);
      obj.frameCount = obj.frameCount + 1;
    end
    function record(obj, steps, every)
      % steps the recorded sim `steps` times, a frame after every `every`-th step (and
      % one first if the recording has none)
      if nargin < 3
        every = 1;
      end
      if every < 1 || steps < 0
        error('maxdyn:arguments', 'record needs steps >= 0 and every >= 1');
      end
      if obj.frameCount == 0
        obj.addFrame();
      end
      done = 0;
      while done < steps
        chunk = min(every, steps - done);
        obj.sim.step(chunk);
        done = done + chunk;
        if chunk == every
          obj.addFrame();
        end
      end
    end
    function close(obj)
      % finishes the file and frees the recorder; an error if the final write failed
      if ~isempty(obj.handle)
        h = obj.handle;
        obj.handle = [];
        maxdyn_mex('recorder_close', h);
      end
    end
  end
end
