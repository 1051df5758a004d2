/// <reference types="assist-widgets/react" />
