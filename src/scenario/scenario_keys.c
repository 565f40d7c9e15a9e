// SPDX-License-Identifier: Apache-2.0
/* The scenario schema as data: every key the loader accepts, with its type,
 * unit, default, allowed values, an example and one line of meaning.  The
 * loader's unknown-key checks read their key lists from here
 * (sc_check_section), `cosrod help KEY` prints an entry and
 * `cosrod help --reference` prints the whole table as the manual's scenario
 * reference: one source for validation and documentation.  Order inside a
 * section is the order of the loader's suggestions; keep it stable.
 * Section paths: N is a list index, NAME a material name. */
#include "scenario_internal.h"

#define K(sec, key, type, unit, def, allowed, ex, doc) {sec, key, type, unit, def, allowed, ex, doc}
#define V3 "vector[3]"
/* The pose and size keys shared by obstacles.N and bodies.N.shape; each doc
 * names the shapes that take the key (the others refuse it, scenario_contact.c). */
#define SHAPE_KEYS(sec, frame, origin)                                                                          \
  K(sec, "center", V3, "m", "[0, 0, 0] (" origin ")", "", "[0, 0, 0.5]",                                      \
    "sphere, cylinder, box: centre, " frame),                                                                   \
      K(sec, "radius", "number", "m", "(required for sphere, cylinder, capsule)", "> 0", "0.05",                \
        "sphere, cylinder, capsule: radius"),                                                                   \
      K(sec, "axis", V3, "", "[0, 0, 1]", "non-zero", "[1, 0, 0]", "cylinder: axis direction, " frame),         \
      K(sec, "length", "number", "m", "none (infinite)", "> 0", "0.4", "cylinder: length between the caps"),    \
      K(sec, "a", V3, "m", "(required for capsule)", "", "[0, 0, 0]", "capsule: first end of the axis, " frame), \
      K(sec, "b", V3, "m", "(required for capsule)", "", "[0, 0, 1]", "capsule: second end of the axis, " frame), \
      K(sec, "size", V3, "m", "(required for box)", "> 0", "[0.2, 0.1, 0.05]", "box: edge lengths along its axes"), \
      K(sec, "orientation", "vector[4]", "", "[1, 0, 0, 0]", "unit quaternion", "[0.7071, 0, 0, 0.7071]",       \
        "box, mesh: orientation, " frame),                                                                       \
      K(sec, "file", "string", "", "(required for mesh)", "closed manifold STL or OBJ", "bracket.stl",           \
        "mesh: triangle mesh file, relative to the scenario file"),                                             \
      K(sec, "position", V3, "m", "[0, 0, 0] (" origin ")", "", "[0, 0, 0.1]", "mesh: position of the mesh origin, " frame)

static const cosrod_sc_keyinfo KEYS[] = {
    /* ---- top level ---- */
    K("", "cosrod", "integer", "", "(required)", "1", "1", "schema version of the file"),
    K("", "title", "string", "", "\"\"", "", "hanging cable", "free text shown in summaries and plots"),
    K("", "gravity", V3, "m/s^2", "[0, 0, 0]", "", "[0, 0, -9.81]", "gravitational acceleration, spatial frame"),
    K("", "materials", "map", "", "{}", "", "{steel: {E: 2.1e11, poisson: 0.3, density: 7850}}",
      "named materials that rods refer to by name"),
    K("", "rods", "list", "", "[]", "", "[{length: 1, segments: 20, material: steel, section: {...}}]",
      "the rods of the model (see rods.N)"),
    K("", "bodies", "list", "", "[]", "", "[{name: box, mass: 2, inertia: [0.1, 0.1, 0.1]}]",
      "rigid bodies (see bodies.N)"),
    K("", "joints", "list", "", "[]", "", "[{type: revolute, bodies: [ground, arm], axis: [0, 0, 1]}]",
      "joints and bushings between bodies (see joints.N)"),
    K("", "analysis", "map", "", "(required)", "", "{type: dynamic, t_end: 2}", "what to compute (see analysis)"),
    K("", "solver", "map", "", "{}", "", "{integrator: auto, rtol: 1e-6}", "formulation and integrator"),
    K("", "output", "map", "", "{}", "", "{dir: out, every: 0.01}", "where and what to write"),
    K("", "obstacles", "list", "", "[]", "", "[{name: floor, shape: plane, normal: [0, 0, 1]}]",
      "fixed, keyframed or body-fixed obstacles (see obstacles.N); needs contact:"),
    K("", "contact", "map", "", "none (no contact)", "", "{friction: {static: 0.5, kinetic: 0.4}}",
      "switch contact on and set its law (see contact); `contact:` alone takes every default"),
    /* ---- materials ---- */
    K("materials.NAME", "E", "number", "Pa", "(required)", "> 0", "2.1e11", "Young's modulus"),
    K("materials.NAME", "G", "number", "Pa", "E / (2 (1 + poisson))", "> 0, Poisson ratio E/(2G) - 1 in [0, 0.5]",
      "8.1e10", "shear modulus (give G or poisson, not both)"),
    K("materials.NAME", "poisson", "number", "", "(required unless G)", "[0, 0.5]", "0.3", "Poisson ratio"),
    K("materials.NAME", "density", "number", "kg/m^3", "(required)", "> 0", "7850", "mass density"),
    /* ---- rods ---- */
    K("rods.N", "name", "string", "", "rodN", "unique", "hose", "name used in output files and messages"),
    K("rods.N", "model", "enum", "", "cosserat", "cosserat, kirchhoff-extensible, kirchhoff-inextensible",
      "kirchhoff-inextensible", "rod model: shearable Cosserat, or Kirchhoff with constrained shear (and extension)"),
    K("rods.N", "length", "number", "m", "from shape or grid", "> 0", "1.5", "arc length of the rod"),
    K("rods.N", "segments", "integer", "", "10 (polyline: points - 1)", "1 .. 1000000", "40",
      "number of segments of a uniform grid"),
    K("rods.N", "grid", "list of numbers", "m", "uniform", "strictly increasing, at least 2", "[0, 0.1, 0.3, 1]",
      "arc lengths s_0 .. s_N of a non-uniform grid (instead of segments)"),
    K("rods.N", "material", "string or map", "", "(required unless stiffness and inertia are complete)",
      "a name under materials, or {E, poisson|G, density}", "steel", "the rod's material"),
    K("rods.N", "section", "map", "", "(required unless stiffness and inertia are complete)", "", "{shape: circle, radius: 0.01}",
      "cross-section (see rods.N.section)"),
    K("rods.N", "shear_correction", "vector[2]", "", "[1, 1]", "> 0", "[0.886, 0.886]",
      "shear correction factors k1, k2 in GA1 = k1 G A, GA2 = k2 G A"),
    K("rods.N", "stiffness", "map", "", "derived from material and section", "", "{EI1: 2.5, EI2: 2.5}",
      "overrides of single stiffness constants (see rods.N.stiffness)"),
    K("rods.N", "inertia", "map", "", "derived from material and section", "", "{rhoA: 0.3}",
      "overrides of single inertia constants (see rods.N.inertia)"),
    K("rods.N", "curvature", "enum", "", "tangent-2", "sine-2, sine-4, tangent-2, tangent-4, angle", "tangent-2",
      "discrete curvature variant, Lang-Linn-Arnold (2011) eq. 26 (i)-(v)"),
    K("rods.N", "damping", "map", "", "none", "", "{kelvin_voigt: {tau_shear: 0.01, tau_bulk: 0.01}}",
      "internal and medium damping (see rods.N.damping)"),
    K("rods.N", "shape", "map", "", "straight along e3 from the origin", "", "{type: arc, radius: 0.5, angle_deg: 90}",
      "initial centreline and frames (see rods.N.shape)"),
    K("rods.N", "reference", "enum", "", "initial", "initial, straight", "straight",
      "stress-free configuration: the initial shape or a straight untwisted rod"),
    K("rods.N", "ends", "map", "", "both free", "start, end", "{start: {type: clamped}}",
      "boundary conditions (see rods.N.ends.start)"),
    K("rods.N", "loads", "list", "", "[]", "", "[{type: force, at: end, value: [0, 0, -1]}]",
      "point forces, moments and distributed forces (see rods.N.loads.K)"),
    K("rods.N.section", "shape", "enum", "", "(required)", "circle, rectangle, tube, custom", "circle",
      "kind of cross-section"),
    K("rods.N.section", "radius", "number", "m", "(required for circle)", "> 0", "0.005", "radius of a circle"),
    K("rods.N.section", "width", "number", "m", "(required for rectangle)", "> 0", "0.02", "extent along d1"),
    K("rods.N.section", "height", "number", "m", "(required for rectangle)", "> 0", "0.002", "extent along d2"),
    K("rods.N.section", "torsion_constant", "number", "m^4", "0 (then I1 + I2)", "> 0", "1.2e-10",
      "torsion constant of a rectangle"),
    K("rods.N.section", "area", "number", "m^2", "(required for custom)", "> 0", "1e-4", "area A"),
    K("rods.N.section", "I1", "number", "m^4", "(required for custom)", "> 0", "8e-10", "second moment about d1"),
    K("rods.N.section", "I2", "number", "m^4", "(required for custom)", "> 0", "8e-10", "second moment about d2"),
    K("rods.N.section", "J", "number", "m^4", "(required for custom)", "> 0", "1.6e-9", "torsion constant"),
    K("rods.N.section", "outer_radius", "number", "m", "(required for tube)", "> 0", "0.012", "outer radius of a tube"),
    K("rods.N.section", "inner_radius", "number", "m", "(required for tube)", ">= 0, < outer_radius", "0.008",
      "inner radius of a tube (0: solid)"),
    K("rods.N.stiffness", "EA", "number", "N", "E A", "> 0", "1e6", "extensional stiffness"),
    K("rods.N.stiffness", "GA1", "number", "N", "k1 G A", "> 0", "4e5", "shear stiffness along d1"),
    K("rods.N.stiffness", "GA2", "number", "N", "k2 G A", "> 0", "4e5", "shear stiffness along d2"),
    K("rods.N.stiffness", "EI1", "number", "N m^2", "E I1", "> 0", "2.5", "bending stiffness about d1"),
    K("rods.N.stiffness", "EI2", "number", "N m^2", "E I2", "> 0", "2.5", "bending stiffness about d2"),
    K("rods.N.stiffness", "GJ", "number", "N m^2", "G J", "> 0", "1.9", "torsional stiffness"),
    K("rods.N.inertia", "rhoA", "number", "kg/m", "density A", "> 0", "0.3", "mass per length"),
    K("rods.N.inertia", "rhoI1", "number", "kg m", "density I1", "> 0", "1e-6", "rotary inertia per length about d1"),
    K("rods.N.inertia", "rhoI2", "number", "kg m", "density I2", "> 0", "1e-6", "rotary inertia per length about d2"),
    K("rods.N.inertia", "rhoJ", "number", "kg m", "density J", "> 0", "2e-6", "polar inertia per length"),
    K("rods.N.damping", "kelvin_voigt", "map", "", "none", "tau_shear, tau_bulk", "{tau_shear: 0.01, tau_bulk: 0.01}",
      "Kelvin-Voigt damping from retardation times, Linn-Lang-Tuganov (2013) eq. 4"),
    K("rods.N.damping", "coefficients", "map", "", "none", "shear, extension, bending, torsion, convention",
      "{bending: [1e-3, 1e-3], torsion: 1e-3}", "viscous coefficients given directly"),
    K("rods.N.damping", "variant", "enum", "", "lla", "lla, no-ds, no-ds-se, bushing, no-weight, shear-e", "no-ds",
      "reading of the discrete dissipation (uniform grid): lla = Lang-Linn-Arnold (2011) eqs. 9-10 and sec. 3.2; "
      "no-ds: strain and curvature rates without the 1/ds factor (viscous coefficients x ds^2); no-ds-se: the same "
      "for shear and extension only; bushing: without 1/ds and without quadrature weights (x ds); no-weight: without "
      "quadrature weights (x 1/ds); shear-e: Kelvin-Voigt shear and torsion viscosities tau_shear E instead of "
      "tau_shear G"),
    K("rods.N.damping", "rotary_inertia", "enum", "", "disc", "disc, cylinder", "cylinder",
      "segment rotary inertia: disc = rho ds (I1, I2, J) of Lang-Linn-Arnold (2011) eq. 27; cylinder adds "
      "rhoA ds^3/12 about d1 and d2 (a rigid cylinder, their sec. 3.3; uniform grid)"),
    K("rods.N.damping", "medium", "map", "", "none", "translational, rotational", "{translational: 0.5}",
      "damping by the surrounding medium, proportional to velocity"),
    K("rods.N.damping.medium", "translational", "number", "N s/m^2", "0", ">= 0", "0.5",
      "force per length and velocity"),
    K("rods.N.damping.medium", "rotational", "number", "N m s", "0", ">= 0", "1e-4",
      "moment per length and angular velocity"),
    K("rods.N.damping.kelvin_voigt", "tau_shear", "number", "s", "(required)", ">= 0", "0.01",
      "shear retardation time (shear and torsion)"),
    K("rods.N.damping.kelvin_voigt", "tau_bulk", "number", "s", "(required)", ">= 0", "0.01",
      "bulk retardation time (with tau_shear gives the extension time)"),
    K("rods.N.damping.coefficients", "shear", "vector[2]", "N s", "[0, 0]", ">= 0", "[0.1, 0.1]",
      "viscous shear coefficients (Cosserat rods only)"),
    K("rods.N.damping.coefficients", "extension", "number", "N s", "0", ">= 0", "0.1",
      "viscous extension coefficient (Cosserat rods only)"),
    K("rods.N.damping.coefficients", "bending", "vector[2]", "N m^2 s", "[0, 0]", ">= 0", "[1e-3, 1e-3]",
      "viscous bending coefficients"),
    K("rods.N.damping.coefficients", "torsion", "number", "N m^2 s", "0", ">= 0", "1e-3", "viscous torsion coefficient"),
    K("rods.N.damping.coefficients", "convention", "enum", "", "viscous", "viscous, lla", "lla",
      "lla: the values are Lang-Linn-Arnold (2011) coefficients c, V = 2 c"),
    K("rods.N.shape", "type", "enum", "", "straight", "straight, arc, helix, polyline", "helix", "initial shape"),
    K("rods.N.shape", "start", V3, "m", "[0, 0, 0]", "", "[0, 0, 1]", "position of the first vertex"),
    K("rods.N.shape", "direction", V3, "", "[0, 0, 1]", "non-zero", "[1, 0, 0]", "initial tangent d3"),
    K("rods.N.shape", "normal", V3, "", "[1, 0, 0]", "not parallel to direction", "[0, 1, 0]",
      "director d1 at the start (polyline: required)"),
    K("rods.N.shape", "radius", "number", "m", "(required for arc, helix)", "> 0", "0.5", "radius of an arc or helix"),
    K("rods.N.shape", "angle_deg", "number", "deg", "(required for arc)", "> 0", "90", "opening angle of an arc"),
    K("rods.N.shape", "pitch", "number", "m", "(required for helix)", ">= 0", "0.05", "rise of a helix per turn"),
    K("rods.N.shape", "turns", "number", "", "(required for helix)", "> 0", "3", "number of helix turns"),
    K("rods.N.shape", "points", "list of " V3, "m", "(required for polyline)", "at least 2", "[[0, 0, 0], [0, 0, 1]]",
      "vertices of a polyline"),
    K("rods.N.ends", "start", "map", "", "{type: free}", "", "{type: clamped}", "condition at s = s_0"),
    K("rods.N.ends", "end", "map", "", "{type: free}", "", "{type: pinned}", "condition at s = s_N"),
    K("rods.N.ends.start", "type", "enum", "", "free", "free, pinned, clamped, prescribed", "clamped",
      "free; pinned fixes the position, clamped position and frame; prescribed follows keyframes"),
    K("rods.N.ends.start", "slides_along", V3, "", "none", "non-zero", "[1, 0, 0]",
      "the end slides along this axis instead of being fixed"),
    K("rods.N.ends.start", "body", "string", "", "none (fixed in space)", "a name under bodies", "gripper",
      "attach the end to a rigid body"),
    K("rods.N.ends.start", "at", V3, "m", "[0, 0, 0]", "", "[0, 0, -0.05]", "attachment point in the body frame"),
    K("rods.N.ends.start", "position", "list of [t, x, y, z]", "s, m", "none", "increasing t", "[[0, 0, 0, 0], [1, 0.2, 0, 0]]",
      "position keyframes (prescribed ends, moving pinned ends)"),
    K("rods.N.ends.start", "orientation", "list of [t, q0, q1, q2, q3]", "s, -", "none", "unit quaternions",
      "[[0, 1, 0, 0, 0], [1, 0.7071, 0, 0.7071, 0]]", "frame keyframes of a prescribed end"),
    K("rods.N.ends.start", "interpolation", "enum", "", "linear", "linear, cubic", "cubic", "keyframe interpolation"),
    K("rods.N.ends.start", "frame", "vector[4]", "", "the initial frame", "unit quaternion", "[1, 0, 0, 0]",
      "frame of a clamped end in the body frame (checked against the initial state)"),
    K("rods.N.loads.K", "type", "enum", "", "(required)", "force, moment, distributed_force", "force", "kind of load"),
    K("rods.N.loads.K", "at", "start, end or integer", "", "(required for force, moment)", "0 .. segments",
      "end", "vertex the load acts on"),
    K("rods.N.loads.K", "value", V3, "N, N m or N/m", "(required)", "", "[0, 0, -10]", "load vector"),
    K("rods.N.loads.K", "frame", "enum", "", "spatial", "spatial, material", "material",
      "material: components in the local directors (follower load)"),
    K("rods.N.loads.K", "ramp", "vector[2]", "s", "none (constant)", "t0 < t1", "[0, 0.5]",
      "linear ramp from 0 at t0 to full at t1"),
    K("rods.N.loads.K", "active", "vector[2]", "s", "always", "t0 < t1", "[0.1, 0.2]", "the load acts only on [t0, t1]"),
    K("rods.N.loads.K", "preload", "bool", "", "false", "", "true",
      "part of the equilibrium of start_from_equilibrium"),
    /* ---- bodies ---- */
    K("bodies.N", "name", "string", "", "(required)", "unique, not 'ground'", "gripper", "name of the body"),
    K("bodies.N", "mass", "number", "kg", "(required unless motion)", "> 0", "1.5", "mass"),
    K("bodies.N", "inertia", V3, "kg m^2", "(required unless motion)", "> 0, triangle inequality", "[0.01, 0.01, 0.02]",
      "principal moments about the centre of mass"),
    K("bodies.N", "position", V3, "m", "[0, 0, 0]", "", "[0, 0, 1]", "initial centre of mass"),
    K("bodies.N", "orientation", "map", "", "identity", "quaternion, euler313", "{quaternion: [1, 0, 0, 0]}",
      "initial orientation of the principal axes"),
    K("bodies.N", "velocity", V3, "m/s", "[0, 0, 0]", "", "[1, 0, 0]", "initial velocity, spatial"),
    K("bodies.N", "angular_velocity", V3, "1/s", "[0, 0, 0]", "", "[0, 0, 10]", "initial angular velocity, body frame"),
    K("bodies.N", "parametrisation", "enum", "", "quaternion", "quaternion, directors, euler-angles", "directors",
      "rotation coordinates, H. Lang (2012) sections 3-7"),
    K("bodies.N", "loads", "list", "", "[]", "", "[{type: force, value: [0, 0, -1]}]",
      "forces and moments on the body (see bodies.N.loads.K)"),
    K("bodies.N", "shape", "map", "", "none (inertia ellipsoid drawn, no contact)", "box, sphere, cylinder, capsule, mesh",
      "{type: box, size: [0.1, 0.1, 0.1]}", "collision shape in the body frame"),
    K("bodies.N", "motion", "map", "", "none (free body)", "position, orientation, interpolation",
      "{position: [[0, 0, 0, 1], [2, 0.5, 0, 1]]}", "drive the body by keyframes"),
    K("bodies.N.loads.K", "type", "enum", "", "(required)", "force, moment", "moment", "kind of load"),
    K("bodies.N.loads.K", "value", V3, "N or N m", "(required)", "", "[0, 0, 1]", "load vector"),
    K("bodies.N.loads.K", "frame", "enum", "", "spatial", "spatial, material", "material", "frame of value"),
    K("bodies.N.loads.K", "at", V3, "m", "[0, 0, 0]", "", "[0.1, 0, 0]",
      "point of a force in the body frame (relative to the centre of mass)"),
    K("bodies.N.loads.K", "ramp", "vector[2]", "s", "none (constant)", "t0 < t1", "[0, 1]", "linear ramp"),
    K("bodies.N.loads.K", "active", "vector[2]", "s", "always", "t0 < t1", "[0, 0.1]", "active interval"),
    K("bodies.N.orientation", "quaternion", "vector[4]", "", "[1, 0, 0, 0]", "unit", "[0.7071, 0, 0, 0.7071]",
      "scalar-first unit quaternion"),
    K("bodies.N.orientation", "euler313", V3, "rad", "none", "", "[0, 0.3, 0]", "3-1-3 Euler angles phi, theta, psi"),
    K("bodies.N.motion", "position", "list of [t, x, y, z]", "s, m", "none", "increasing t", "[[0, 0, 0, 1], [1, 0, 0, 2]]",
      "centre-of-mass keyframes"),
    K("bodies.N.motion", "orientation", "list of [t, q0, q1, q2, q3]", "s, -", "none", "unit quaternions",
      "[[0, 1, 0, 0, 0], [1, 0, 0, 0, 1]]", "orientation keyframes"),
    K("bodies.N.motion", "interpolation", "enum", "", "linear", "linear, cubic", "cubic", "keyframe interpolation"),
    /* bodies.N.shape: the keys of obstacles.N with type for shape, pose in the body frame */
    K("bodies.N.shape", "type", "enum", "", "(required)", "sphere, cylinder, capsule, box, mesh", "box",
      "kind of collision shape (a body cannot be a plane)"),
    SHAPE_KEYS("bodies.N.shape", "body frame", "the centre of mass"),
    /* ---- obstacles and contact ---- */
    K("obstacles.N", "name", "string", "", "(required)", "unique", "floor", "name in contact output and messages"),
    K("obstacles.N", "shape", "enum", "", "(required)", "plane, sphere, cylinder, capsule, box, mesh", "sphere",
      "kind of obstacle; each kind takes the keys marked with its name below"),
    K("obstacles.N", "body", "string", "", "none (fixed in space)", "a name under bodies", "gripper",
      "the obstacle rides on this body; its pose keys are then in the body frame"),
    K("obstacles.N", "motion", "map", "", "none (fixed)", "position, orientation, interpolation",
      "{position: [[0, 0, 0, 0], [1, 0.5, 0, 0]]}", "keyframed motion of the obstacle (not with body)"),
    K("obstacles.N", "point", V3, "m", "[0, 0, 0]", "", "[0, 0, -0.1]", "plane: a point on the boundary"),
    K("obstacles.N", "normal", V3, "", "(required for plane)", "non-zero", "[0, 0, 1]",
      "plane: outward normal; the half-space behind it is solid"),
    SHAPE_KEYS("obstacles.N", "spatial frame", "the origin"),
    K("obstacles.N.motion", "position", "list of [t, x, y, z]", "s, m", "none", "increasing t",
      "[[0, 0, 0, 0], [1, 0.5, 0, 0]]",
      "position keyframes of the shape frame (centre, plane point, capsule midpoint, mesh origin); replace the pose"),
    K("obstacles.N.motion", "orientation", "list of [t, q0, q1, q2, q3]", "s, -", "none", "unit quaternions",
      "[[0, 1, 0, 0, 0], [1, 0.7071, 0, 0, 0.7071]]",
      "orientation keyframes of the shape frame (local e_z: plane normal, cylinder and capsule axis)"),
    K("obstacles.N.motion", "interpolation", "enum", "", "linear", "linear, cubic", "cubic", "keyframe interpolation"),
    K("contact", "stiffness", "number or auto", "N/m^2", "auto", "> 0",
      "3e4", "penalty stiffness per unit length; auto: max(4 EI/ds^4, rhoA |g| / (0.01 r), T / ((R + r) 0.05 r)) "
      "against obstacles (T: the rod's tension estimated from its weight, loads and bodies, times e^(mu_s pi) "
      "with a support in space; R: the smallest sphere, cylinder or capsule radius), rod-rod and self: "
      "max(4 EI/ds^4, rhoA |g| / (0.01 r), EI / (0.1 r R^2 ds)), R = max(r, ds)"),
    K("contact", "onset", "number or auto", "m", "auto", "> 0", "1e-4",
      "width of the smooth onset of the penalty; auto: 0.01 r"),
    K("contact", "damping", "number, auto or none", "N s/m^2", "auto", ">= 0 (0: none)", "none",
      "normal contact damping per unit length; auto: 2 sqrt(k rhoA)"),
    K("contact", "tangent_stiffness", "number or auto", "N/m^2", "auto", "> 0", "1e4",
      "stiffness of the friction spring; auto: the normal stiffness (auto: without its T term)"),
    K("contact", "friction", "map", "", "none (frictionless)", "static, kinetic", "{static: 0.5, kinetic: 0.4}",
      "Coulomb friction coefficients (see contact.friction)"),
    K("contact", "rods", "bool", "", "true", "", "false", "contact between different rods"),
    K("contact", "self", "bool", "", "true", "", "false", "self-contact of each rod"),
    K("contact", "quadrature", "integer", "", "0 (2 Gauss points)", "1 .. 4", "3",
      "Gauss points per segment for obstacle contact"),
    K("contact.friction", "static", "number", "", "(required)", ">= 0", "0.5", "static friction coefficient"),
    K("contact.friction", "kinetic", "number", "", "the static coefficient", ">= 0, <= static", "0.4",
      "kinetic (sliding) friction coefficient"),
    /* ---- joints ---- */
    K("joints.N", "type", "enum", "", "(required)",
      "spherical, revolute, prismatic, cylindrical, planar, bushing, universal, fixed", "revolute", "kind of joint"),
    K("joints.N", "bodies", "list of 2 names", "", "(required)", "body names or ground", "[ground, arm]",
      "the two bodies joined"),
    K("joints.N", "at", "list of 2 " V3, "m", "[[0, 0, 0], [0, 0, 0]]", "", "[[0, 0, 0], [0, 0, 0.5]]",
      "joint point in each body's frame"),
    K("joints.N", "axis", V3, "", "(required for revolute, prismatic, cylindrical, planar, universal)", "non-zero",
      "[0, 0, 1]", "joint axis in the first body's frame"),
    K("joints.N", "axis2", V3, "", "(required for universal)", "non-zero", "[1, 0, 0]",
      "second axis in the second body's frame"),
    K("joints.N", "stiffness", "number", "N/m", "(required for bushing)", "> 0", "1e4", "bushing spring constant"),
    K("joints.N", "damping", "number", "N s/m", "0", ">= 0", "10", "bushing damper constant"),
    K("joints.N", "stiffness_rot", "number", "N m/rad", "0", ">= 0", "100", "bushing rotational spring"),
    K("joints.N", "damping_rot", "number", "N m s/rad", "0", ">= 0", "1", "bushing rotational damper"),
    /* ---- analysis ---- */
    K("analysis", "type", "enum", "", "dynamic", "dynamic, static, modes, buckling", "static", "kind of analysis"),
    K("analysis", "t_end", "number", "s", "(required for dynamic)", "> 0", "2", "final time"),
    K("analysis", "increments", "integer", "", "25", ">= 1", "50", "load increments of a static analysis"),
    K("analysis", "count", "integer", "", "10 (buckling: 3)", ">= 1", "6", "number of modes (each member of a degenerate pair and each rigid-body mode counts) or buckling loads"),
    K("analysis", "start_from_equilibrium", "bool", "", "false", "", "true",
      "a dynamic run starts from the static equilibrium of the preloads"),
    K("analysis", "gravity", "enum", "", "ramp", "ramp, constant", "constant", "static: gravity ramped with t or constant"),
    K("analysis", "control", "enum", "", "load", "load, arc-length", "arc-length",
      "static: load control or arc-length continuation in a load factor"),
    K("analysis", "path", "enum", "", "pseudo-time", "pseudo-time, keyframes", "keyframes",
      "static: follow the keyframes of prescribed ends and driven bodies"),
    K("analysis", "max_steps", "integer", "", "2000", ">= 1", "500", "arc-length: most continuation steps"),
    K("analysis", "switch_branch", "bool", "", "false", "", "true",
      "arc-length: leave the path at its first bifurcation point"),
    /* ---- solver ---- */
    K("solver", "formulation", "enum", "", "nullspace", "nullspace, absolute, dae", "dae",
      "equations of motion of the rotations (see the modelling guide)"),
    K("solver", "stabilisation", "enum", "", "projection", "projection, baumgarte, none", "baumgarte",
      "absolute formulation: how |p| = 1 is kept"),
    K("solver", "baumgarte", "map", "", "{omega: 100, r: 100}", "omega, r", "{omega: 50, r: 50}",
      "Baumgarte parameters (see solver.baumgarte)"),
    K("solver", "integrator", "enum", "", "auto",
      "auto, radau5, rodas, seulex, dopri5, dop853, ida, cvode, galpha, odex", "dopri5",
      "time integrator (auto: chosen from the problem, see the integrators guide)"),
    K("solver", "rtol", "number", "", "1e-6", "(0, 1)", "1e-8", "relative tolerance"),
    K("solver", "atol", "number", "", "1e-6", "> 0", "1e-9", "absolute tolerance"),
    K("solver", "h0", "number", "s", "0 (automatic)", ">= 0", "1e-5", "initial step size (0: automatic)"),
    K("solver", "hmax", "number", "s", "0 (no limit)", ">= 0", "1e-3", "largest step size (0: no limit)"),
    K("solver", "max_steps", "integer", "", "100000", ">= 1", "1000000", "most steps of a run"),
    K("solver", "rho_inf", "number", "", "0.8 (auto: 0.5)", "[0, 1]", "0.5",
      "generalized-alpha spectral radius at infinity (auto keeps it when given)"),
    K("solver", "h", "number", "s", "0 (variable step)", ">= 0", "1e-4", "fixed step size (galpha, or auto: then galpha)"),
    K("solver", "threads", "integer", "", "1", ">= 0 (0: OMP_NUM_THREADS, else all cores)", "2",
      "threads of the rod right-hand sides and Jacobians (rods of >= 2000 segments; bit-identical) and of banded "
      "solves of order >= 2000 (partitioned; rounding-level differences)"),
    K("solver", "realtime", "map", "", "none (off)", "h, newton_max, jac_budget", "{h: 1e-3, newton_max: 2}",
      "real-time mode of galpha: fixed step, bounded work per step (see solver.realtime)"),
    K("solver", "linear_solver", "enum", "", "auto", "auto, band, sparse", "sparse",
      "linear solver of implicit methods"),
    K("solver.realtime", "h", "number", "s", "solver.h, else 1e-3", "> 0", "1e-3", "the fixed step"),
    K("solver.realtime", "newton_max", "integer", "", "2", "[1, 100]", "3",
      "Newton iterations per step at most; the last iterate is accepted"),
    K("solver.realtime", "jac_budget", "integer", "", "1", "[0, 100]", "0",
      "tangent Jacobian evaluations per step at most (0: only when none is valid, at the start)"),
    K("solver.baumgarte", "omega", "number", "1/s", "100", "> 0", "50", "Baumgarte frequency"),
    K("solver.baumgarte", "r", "number", "1/s", "100", ">= 0", "50", "Baumgarte damping rate"),
    /* ---- output ---- */
    K("output", "dir", "string", "", "out/<file stem>", "non-empty", "results/cable", "output directory"),
    K("output", "every", "number", "s", "t_end/100 (static: 1/increments)", "> 0", "0.01", "output interval"),
    K("output", "vtk", "bool", "", "true", "", "false", "write vtk/ for ParaView"),
    K("output", "plots", "bool", "", "true", "", "false", "write plots/*.png"),
    K("output", "fields", "list of enums", "", "all but tip", "tip, centerline, frames, strains, curvatures, energy, steps, reactions",
      "[tip, energy]", "which CSV files to write"),
    K("output", "steps", "bool", "", "true", "", "false", "write steps.csv"),
    K("output", "checkpoint", "map", "", "{wall: 30}", "", "{every: 0.5}",
      "restart checkpoints of dynamic runs (checkpoint.bin; cosrod run --resume DIR)"),
    K("output.checkpoint", "every", "number", "s", "none", "> 0", "0.5",
      "simulated time between checkpoints (at the first output time at or after each multiple)"),
    K("output.checkpoint", "wall", "number", "s", "30", "> 0", "60", "wall-clock time between checkpoints"),
    K("output", "format", "enum", "", "csv", "csv, hdf5", "hdf5",
      "csv: one CSV file per table; hdf5: DIR/run.h5 (and vtk/cosrod.vtkhdf), needs HDF5"),
};

#undef K
#undef V3
#undef SHAPE_KEYS

size_t cosrod_sc_key_count(void) { return sizeof KEYS / sizeof KEYS[0]; }

const cosrod_sc_keyinfo *cosrod_sc_key_at(size_t i) { return i < cosrod_sc_key_count() ? &KEYS[i] : NULL; }

/* Every key of map must be a key of `section` in the table. */
void sc_check_section(ctx *c, ynode *map, const char *section) {
  const char *names[64];
  size_t n = 0;
  for (size_t i = 0; i < cosrod_sc_key_count() && n + 1 < 64; i++)
    if (!strcmp(KEYS[i].section, section)) names[n++] = KEYS[i].key;
  names[n] = NULL;
  sc_check_keys(c, map, names);
}

/* ---- defaults from the table ------------------------------------------------
 * The loader takes a key's default from its entry where the entry states a
 * plain value: a number ("1e-6", or "0 (automatic)": the number before a
 * parenthesised remark), true / false, or an enum name.  The paths passed
 * here are checked against the table by tools/docs_keys_check.py (CTest
 * docs.keys), so a missing entry or a default that is not plain fails the
 * test suite, not a run. */

static const cosrod_sc_keyinfo *find_key(const char *path) {
  for (size_t i = 0; i < cosrod_sc_key_count(); i++) {
    const cosrod_sc_keyinfo *k = &KEYS[i];
    size_t ls = strlen(k->section);
    if (ls == 0 ? !strcmp(k->key, path)
                : !strncmp(path, k->section, ls) && path[ls] == '.' && !strcmp(path + ls + 1, k->key))
      return k;
  }
  return NULL;
}

/* The entry's default as a number; NaN when the entry is missing or its
 * default is not a plain number. */
double sc_key_default_num(const char *path) {
  const cosrod_sc_keyinfo *k = find_key(path);
  if (!k) return NAN;
  char *end;
  double x = strtod(k->def, &end);
  if (end == k->def || (*end && strncmp(end, " (", 2))) return NAN;
  return x;
}

/* The entry's default true / false as 1 / 0; -1 when not a boolean. */
int sc_key_default_bool(const char *path) {
  const cosrod_sc_keyinfo *k = find_key(path);
  if (!k) return -1;
  return !strcmp(k->def, "true") ? 1 : !strcmp(k->def, "false") ? 0 : -1;
}

/* The entry's default as a string (output.dir); NULL when the entry is missing. */
const char *sc_key_default_str(const char *path) {
  const cosrod_sc_keyinfo *k = find_key(path);
  return k ? k->def : NULL;
}

/* Index of the entry's default in names (NULL-terminated); -1 when absent. */
int sc_key_default_enum(const char *path, const char *const *names) {
  const cosrod_sc_keyinfo *k = find_key(path);
  for (int i = 0; k && names[i]; i++)
    if (!strcmp(names[i], k->def)) return i;
  return -1;
}
