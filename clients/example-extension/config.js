// The Placard service this extension talks to: its base address, including a base path when the
// service is mounted under one (e.g. 'https://offers.example.com/offers'). The host must also be
// in manifest.json's host_permissions.
export const BASE_URL = 'http://127.0.0.1:8080';
// The placements (created by the operator in the admin page) this extension shows.
export const POPUP_PLACEMENT = 'popup-main';
export const PAGE_PLACEMENT = 'sidebar';
