// SPDX-License-Identifier: Apache-2.0
/* Scenario enums -> rod model enums.  Every conversion is an explicit table
 * written as a switch over the scenario enum without a default, so that a new
 * scenario value that is not mapped here is a compile-time error (-Wswitch
 * under -Werror); nothing relies on the two enums having the same order. */
#include "sim/sim_internal.h"

cosrod_rod_model sim_enum_model(cosrod_sc_model m) {
  switch (m) {
    case COSROD_SC_MODEL_COSSERAT: return COSROD_MODEL_COSSERAT;
    case COSROD_SC_MODEL_KIRCHHOFF_EXTENSIBLE: return COSROD_MODEL_KIRCHHOFF_EXTENSIBLE;
    case COSROD_SC_MODEL_KIRCHHOFF_INEXTENSIBLE: return COSROD_MODEL_KIRCHHOFF_INEXTENSIBLE;
  }
  return COSROD_MODEL_COSSERAT;
}

cosrod_curvature sim_enum_curvature(cosrod_sc_curvature c) {
  switch (c) {
    case COSROD_SC_CURVATURE_SINE2: return COSROD_CURV_SINE2;
    case COSROD_SC_CURVATURE_SINE4: return COSROD_CURV_SINE4;
    case COSROD_SC_CURVATURE_TANGENT2: return COSROD_CURV_TANGENT2;
    case COSROD_SC_CURVATURE_TANGENT4: return COSROD_CURV_TANGENT4;
    case COSROD_SC_CURVATURE_ANGLE: return COSROD_CURV_ANGLE;
  }
  return COSROD_CURV_TANGENT2;
}

/* A tube is passed as a custom section with its resolved area and moments
 * (scenario_rod.c). */
cosrod_section_shape sim_enum_section(cosrod_sc_section_shape s) {
  switch (s) {
    case COSROD_SC_SECTION_CIRCLE: return COSROD_SECTION_CIRCLE;
    case COSROD_SC_SECTION_RECTANGLE: return COSROD_SECTION_RECTANGLE;
    case COSROD_SC_SECTION_CUSTOM: return COSROD_SECTION_CUSTOM;
    case COSROD_SC_SECTION_TUBE: return COSROD_SECTION_CUSTOM;
  }
  return COSROD_SECTION_CIRCLE;
}

cosrod_damping_kind sim_enum_damping(cosrod_sc_damping_kind d) {
  switch (d) {
    case COSROD_SC_DAMPING_NONE: return COSROD_DAMPING_NONE;
    case COSROD_SC_DAMPING_KELVIN_VOIGT: return COSROD_DAMPING_KELVIN_VOIGT;
    case COSROD_SC_DAMPING_COEFFICIENTS: return COSROD_DAMPING_COEFFICIENTS;
  }
  return COSROD_DAMPING_NONE;
}

cosrod_shape_kind sim_enum_shape(cosrod_sc_shape_kind k) {
  switch (k) {
    case COSROD_SC_SHAPE_STRAIGHT: return COSROD_SHAPE_STRAIGHT;
    case COSROD_SC_SHAPE_ARC: return COSROD_SHAPE_ARC;
    case COSROD_SC_SHAPE_HELIX: return COSROD_SHAPE_HELIX;
    case COSROD_SC_SHAPE_POLYLINE: return COSROD_SHAPE_POLYLINE;
  }
  return COSROD_SHAPE_STRAIGHT;
}

cosrod_reference_kind sim_enum_reference(cosrod_sc_reference r) {
  switch (r) {
    case COSROD_SC_REFERENCE_INITIAL: return COSROD_REFERENCE_INITIAL;
    case COSROD_SC_REFERENCE_STRAIGHT: return COSROD_REFERENCE_STRAIGHT;
  }
  return COSROD_REFERENCE_INITIAL;
}

cosrod_end_kind sim_enum_end(cosrod_sc_end_type e) {
  switch (e) {
    case COSROD_SC_END_FREE: return COSROD_END_FREE;
    case COSROD_SC_END_PINNED: return COSROD_END_PINNED;
    case COSROD_SC_END_CLAMPED: return COSROD_END_CLAMPED;
    case COSROD_SC_END_PRESCRIBED: return COSROD_END_PRESCRIBED;
  }
  return COSROD_END_FREE;
}

cosrod_load_kind sim_enum_load(cosrod_sc_load_type t) {
  switch (t) {
    case COSROD_SC_LOAD_FORCE: return COSROD_LOAD_FORCE;
    case COSROD_SC_LOAD_MOMENT: return COSROD_LOAD_MOMENT;
    case COSROD_SC_LOAD_DISTRIBUTED_FORCE: return COSROD_LOAD_DISTRIBUTED;
  }
  return COSROD_LOAD_FORCE;
}

cosrod_load_frame sim_enum_frame(cosrod_sc_frame f) {
  switch (f) {
    case COSROD_SC_FRAME_SPATIAL: return COSROD_FRAME_SPATIAL;
    case COSROD_SC_FRAME_MATERIAL: return COSROD_FRAME_MATERIAL;
  }
  return COSROD_FRAME_SPATIAL;
}

/* A preload acts only in the initial equilibrium, where it is constant. */
cosrod_profile sim_enum_profile(cosrod_sc_profile p) {
  switch (p) {
    case COSROD_SC_PROFILE_CONSTANT: return COSROD_PROFILE_CONSTANT;
    case COSROD_SC_PROFILE_RAMP: return COSROD_PROFILE_RAMP;
    case COSROD_SC_PROFILE_ACTIVE: return COSROD_PROFILE_ACTIVE;
    case COSROD_SC_PROFILE_PRELOAD: return COSROD_PROFILE_CONSTANT;
  }
  return COSROD_PROFILE_CONSTANT;
}

/* ---- scenario enums -> system definition enums (system/system_def.h) ---- */

cosrod_body_param sim_enum_body_param(cosrod_sc_parametrisation p) {
  switch (p) {
    case COSROD_SC_PARAM_QUATERNION: return COSROD_BODY_QUATERNION;
    case COSROD_SC_PARAM_DIRECTORS: return COSROD_BODY_DIRECTORS;
    case COSROD_SC_PARAM_EULER_ANGLES: return COSROD_BODY_EULER313;
  }
  return COSROD_BODY_QUATERNION;
}

/* A body carries forces and moments (a distributed force is refused by the
 * scenario's validation). */
cosrod_body_load_kind sim_enum_body_load(cosrod_sc_load_type t) {
  switch (t) {
    case COSROD_SC_LOAD_FORCE: return COSROD_BODY_LOAD_FORCE;
    case COSROD_SC_LOAD_MOMENT: return COSROD_BODY_LOAD_MOMENT;
    case COSROD_SC_LOAD_DISTRIBUTED_FORCE: return COSROD_BODY_LOAD_FORCE;
  }
  return COSROD_BODY_LOAD_FORCE;
}

cosrod_body_load_frame sim_enum_body_frame(cosrod_sc_frame f) {
  switch (f) {
    case COSROD_SC_FRAME_SPATIAL: return COSROD_BODY_LOAD_SPATIAL;
    case COSROD_SC_FRAME_MATERIAL: return COSROD_BODY_LOAD_BODY;
  }
  return COSROD_BODY_LOAD_SPATIAL;
}

/* A preload acts only in the initial equilibrium, where it is constant. */
cosrod_body_load_profile sim_enum_body_profile(cosrod_sc_profile p) {
  switch (p) {
    case COSROD_SC_PROFILE_CONSTANT: return COSROD_BODY_LOAD_CONSTANT;
    case COSROD_SC_PROFILE_RAMP: return COSROD_BODY_LOAD_RAMP;
    case COSROD_SC_PROFILE_ACTIVE: return COSROD_BODY_LOAD_ACTIVE;
    case COSROD_SC_PROFILE_PRELOAD: return COSROD_BODY_LOAD_CONSTANT;
  }
  return COSROD_BODY_LOAD_CONSTANT;
}

/* A bushing is no joint of the body module (sys_joint.bushing says so; its
 * type is not read). */
cosrod_joint_type sim_enum_joint(cosrod_sc_joint_type t) {
  switch (t) {
    case COSROD_SC_JOINT_SPHERICAL: return COSROD_JOINT_SPHERICAL;
    case COSROD_SC_JOINT_REVOLUTE: return COSROD_JOINT_REVOLUTE;
    case COSROD_SC_JOINT_PRISMATIC: return COSROD_JOINT_PRISMATIC;
    case COSROD_SC_JOINT_CYLINDRICAL: return COSROD_JOINT_CYLINDRICAL;
    case COSROD_SC_JOINT_PLANAR: return COSROD_JOINT_PLANAR;
    case COSROD_SC_JOINT_BUSHING: return COSROD_JOINT_SPHERICAL;
    case COSROD_SC_JOINT_UNIVERSAL: return COSROD_JOINT_UNIVERSAL;
    case COSROD_SC_JOINT_FIXED: return COSROD_JOINT_FIXED;
  }
  return COSROD_JOINT_SPHERICAL;
}

sys_analysis sim_enum_analysis(cosrod_sc_analysis_type a) {
  switch (a) {
    case COSROD_SC_ANALYSIS_DYNAMIC: return SYS_ANALYSIS_DYNAMIC;
    case COSROD_SC_ANALYSIS_STATIC: return SYS_ANALYSIS_STATIC;
    case COSROD_SC_ANALYSIS_MODES: return SYS_ANALYSIS_MODES;
    case COSROD_SC_ANALYSIS_BUCKLING: return SYS_ANALYSIS_BUCKLING;
  }
  return SYS_ANALYSIS_DYNAMIC;
}

cosrod_rod_form sim_enum_formulation(cosrod_sc_formulation f) {
  switch (f) {
    case COSROD_SC_FORMULATION_NULLSPACE: return COSROD_FORM_NULLSPACE;
    case COSROD_SC_FORMULATION_ABSOLUTE: return COSROD_FORM_ABSOLUTE;
    case COSROD_SC_FORMULATION_DAE: return COSROD_FORM_DAE;
  }
  return COSROD_FORM_NULLSPACE;
}

sys_stabilisation sim_enum_stabilisation(cosrod_sc_stabilisation s) {
  switch (s) {
    case COSROD_SC_STAB_PROJECTION: return SYS_STAB_PROJECTION;
    case COSROD_SC_STAB_BAUMGARTE: return SYS_STAB_BAUMGARTE;
    case COSROD_SC_STAB_NONE: return SYS_STAB_NONE;
  }
  return SYS_STAB_PROJECTION;
}

sys_linear_solver sim_enum_linear_solver(cosrod_sc_linear_solver l) {
  switch (l) {
    case COSROD_SC_LINSOLVE_AUTO: return SYS_LINSOLVE_AUTO;
    case COSROD_SC_LINSOLVE_BAND: return SYS_LINSOLVE_BAND;
    case COSROD_SC_LINSOLVE_SPARSE: return SYS_LINSOLVE_SPARSE;
  }
  return SYS_LINSOLVE_AUTO;
}
