/** The analytics beacon, `assist-analytics.js`. */
export {};
