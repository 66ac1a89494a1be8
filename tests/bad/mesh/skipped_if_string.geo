// the unit cube of meshes/cube.geo, then a trick on the check's lexer
lc = 0.5;
Point(1) = {0, 0, 0, lc}; Point(2) = {1, 0, 0, lc}; Point(3) = {1, 1, 0, lc}; Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Extrude {0, 0, 1} { Surface{1}; }
Physical Volume("cube") = {1};
If (0)
  Printf("EndIf SystemCall 'touch fcsim-bad-canary'; If (0) ");
EndIf
