export { default, metadata } from "./probes/page";
