// fcsim — HapCo benchmark 2 (talbi2008 Fig. 5): the green (moving) block, 2 x 2 x 2 cm, centred at
// x = 8 cm on the red block's top face z = 2 cm (touching, no interpenetration). Groups: hapco_box.geo.
x0 = 0.07; y0 = 0; z0 = 0.02;
lx = 0.02; ly = 0.02; lz = 0.02;
lc = 0.005;
Include "hapco_box.geo";
