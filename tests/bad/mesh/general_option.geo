// General options are Gmsh's own settings; AbortOnError = 4 would make any error exit().
General.AbortOnError = 4;
