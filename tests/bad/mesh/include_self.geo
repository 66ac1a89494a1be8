// A script that includes itself: Gmsh would read it forever.
Include "include_self.geo";
