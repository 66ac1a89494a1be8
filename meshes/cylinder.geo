// fcsim — quarter of a cylinder of radius R = 0.2 m (axis z) for the rubber-cylinder press
// (cases/cylinder_press.json, han2023 §VII-A, Bijelonja, Demirdžić & Muzaferija 2005): the
// quadrant x >= 0, y >= 0 of the disk, extruded along z over a thickness t = 0.01 m in two
// layers of tetrahedra (plane strain: the case sets u_z = 0 at every node, so t only scales
// the force; force per unit length = force / t).
//
// Physical groups: surfaces "xsym" (x = 0), "ysym" (y = 0), "outer" (the curved surface),
// "zfaces" (z = 0 and z = t); volume "rubber".
// Element size lc = R/5 at refine 0; fcsim multiplies it by 2^-refine (the number of layers
// along z stays 2: the out-of-plane direction carries no deformation).
R = 0.2;
t = 0.01;
lc = R / 5;
Point(1) = {0, 0, 0, lc};
Point(2) = {R, 0, 0, lc};
Point(3) = {0, R, 0, lc};
Line(1) = {1, 2};
Circle(2) = {2, 1, 3};
Line(3) = {3, 1};
Curve Loop(1) = {1, 2, 3};
Plane Surface(1) = {1};
// Extrusion without Recombine: each prism of the extruded triangle mesh is split into three
// tetrahedra, so the volume mesh is conforming tetrahedra only.
out[] = Extrude {0, 0, t} { Surface{1}; Layers{2}; };
// out[0] = top surface (z = t), out[1] = volume, out[2..4] = lateral surfaces from curves 1, 2, 3
Physical Surface("ysym", 1) = {out[2]};
Physical Surface("outer", 2) = {out[3]};
Physical Surface("xsym", 3) = {out[4]};
Physical Surface("zfaces", 4) = {1, out[0]};
Physical Volume("rubber", 5) = {out[1]};
