/**
 * Taints, their effects and tolerations, with the questions asked of a toleration list against a
 * node's taints. Who acts on a NoExecute taint (the taint manager, Karpenter's termination) is
 * not here.
 */
package io.gpufleet.model.taint;
