// A .geo that runs a shell command when Gmsh reads it (harmless here: `true`); fcsim refuses
// it before Gmsh opens the file. The words in this comment and in the string below are ignored.
Printf("SystemCall in a string is only text");
SystemCall "true";
