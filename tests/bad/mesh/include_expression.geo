// A file name computed by an expression cannot be checked before Gmsh runs: refused.
Include StrCat("include/", "systemcall_part.geo");
