// The app's start page, unchanged: same markup (its meta is the root's).
export { default } from "../../../../app/routes/_index";
