// fcsim — the quarter cylinder of meshes/cylinder.geo (R = 0.2 m, t = 0.01 m, two layers of
// tetrahedra along z, the same physical groups), graded towards the contact point (0, R) for the
// small-compression check against the 2-D Hertz line contact (scripts/cylinder_hertz.py, Johnson
// 1985 §5.6). The contact half-width b is about 10 mm at 2 mm of total compression and 25 mm at
// 10 mm, so the element size is lc_c = R/100 = 2 mm within 30 mm of (0, R) (five quadratic
// elements across the smallest half-width at refine 0, ten at 1, twenty at 2) and grows linearly
// to lc = R/5 at 150 mm from it, as far away as cylinder.geo's mesh. fcsim scales every size,
// those of the field included, by 2^-refine (Mesh.MeshSizeFactor).
R = 0.2;
t = 0.01;
lc = R / 5;
lc_c = R / 50;
Point(1) = {0, 0, 0, lc};
Point(2) = {R, 0, 0, lc};
Point(3) = {0, R, 0, lc_c};
Line(1) = {1, 2};
Circle(2) = {2, 1, 3};
Line(3) = {3, 1};
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};
Field[1] = Distance;
Field[1].PointsList = {3};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = lc_c;
Field[2].SizeMax = lc;
Field[2].DistMin = 0.03;
Field[2].DistMax = 0.12;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
out[] = Extrude {0, 0, t} { Surface{1}; Layers{2}; };
Physical Surface("ysym", 1) = {out[2]};
Physical Surface("outer", 2) = {out[3]};
Physical Surface("xsym", 3) = {out[4]};
Physical Surface("zfaces", 4) = {1, out[0]};
Physical Volume("rubber", 5) = {out[1]};
