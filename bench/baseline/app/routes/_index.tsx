// The app's start page, unchanged: same markup, same meta.
export { default, meta } from "../../../../app/routes/_index";
