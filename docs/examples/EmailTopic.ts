// Written by `npm run docs` from the schema in provider/email/topic.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

const news = new svc.EmailTopic("news", {
  name: "Product news",
  description: "A monthly letter about what is new.",
});

export const topicId = news.topicId;
