/// <reference types="assist-widgets/vue" />
