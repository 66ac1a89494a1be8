// Include inside the mesh's folder is allowed, and the included script is checked too.
Include "include/systemcall_part.geo";
