/**
 * The cloud's instance types as Karpenter's AWS provider describes them: shape, GPUs, the
 * allocatable estimate, offerings (capacity type × zone × price), and the built-in catalogue
 * with the plain-text table it ships as. Data and the arithmetic over it; which type to launch
 * is the autoscaler's decision, and YAML catalogues are read in {@code manifest}.
 */
package io.gpufleet.model.cloud;
