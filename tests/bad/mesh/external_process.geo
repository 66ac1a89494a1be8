// A mesh size field that runs an external program for every size it evaluates.
Field[1] = ExternalProcess;
Field[1].CommandLine = "true";
Background Field = 1;
